// The tools' ids (package.json contributes.languageModelTools `name`) and the `#` names people type
// in chat (`toolReferenceName`). A unit test checks that package.json declares exactly these.

export const LM_TOOLS = {
  deepResearch: { name: 'unifiedInference_deepResearch', reference: 'deepResearch' },
  researchStatus: { name: 'unifiedInference_researchStatus', reference: 'researchStatus' },
  semanticSearch: { name: 'unifiedInference_semanticSearch', reference: 'semanticSearch' },
  rerank: { name: 'unifiedInference_rerank', reference: 'rerank' },
  generateImage: { name: 'unifiedInference_generateImage', reference: 'generateImage' },
  transcribe: { name: 'unifiedInference_transcribe', reference: 'transcribe' },
  credits: { name: 'unifiedInference_credits', reference: 'credits' },
} as const;

export type LmToolKey = keyof typeof LM_TOOLS;
