// ISO-639-1 codes offered for transcription (the gateway takes any ISO-639-1 code; these are the
// languages speech models commonly support). Pure.
export const TRANSCRIPTION_LANGUAGES: readonly (readonly [code: string, name: string])[] = [
  ['en', 'English'], ['de', 'German'], ['fr', 'French'], ['es', 'Spanish'], ['it', 'Italian'], ['pt', 'Portuguese'],
  ['nl', 'Dutch'], ['sv', 'Swedish'], ['da', 'Danish'], ['no', 'Norwegian'], ['fi', 'Finnish'], ['pl', 'Polish'],
  ['cs', 'Czech'], ['sk', 'Slovak'], ['hu', 'Hungarian'], ['ro', 'Romanian'], ['bg', 'Bulgarian'], ['el', 'Greek'],
  ['ru', 'Russian'], ['uk', 'Ukrainian'], ['tr', 'Turkish'], ['ar', 'Arabic'], ['he', 'Hebrew'], ['fa', 'Persian'],
  ['hi', 'Hindi'], ['bn', 'Bengali'], ['ur', 'Urdu'], ['ta', 'Tamil'], ['th', 'Thai'], ['vi', 'Vietnamese'],
  ['id', 'Indonesian'], ['ms', 'Malay'], ['zh', 'Chinese'], ['ja', 'Japanese'], ['ko', 'Korean'], ['ca', 'Catalan'],
];
