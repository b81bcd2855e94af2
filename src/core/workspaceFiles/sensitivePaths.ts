// Files that hold secrets: the model's workspace tools never read them without the user's
// explicit, one-time approval, listing and searching leave them out, and semantic indexing never
// sends them to the gateway. Users add globs (unifiedInference.sensitiveFiles); the built-in list
// cannot be narrowed. Matched without regard to case: `.ENV` on a case-insensitive disk is `.env`.
import { compileGlob, pathPrefixes, type PathMatcher } from './glob';

const BUILT_IN_SENSITIVE_FILES: readonly string[] = [
  // Environment files (.env, .env.local, .envrc, ...)
  '**/.env*',
  // Private keys, keystores and certificates
  '**/*.pem',
  '**/*.key',
  '**/*.p8',
  '**/*.p12',
  '**/*.pfx',
  '**/*.jks',
  '**/*.keystore',
  '**/*.ppk',
  '**/*.crt',
  '**/*.cer',
  '**/id_rsa*',
  '**/id_dsa*',
  '**/id_ecdsa*',
  '**/id_ed25519*',
  '**/*.kdbx',
  // Version control internals and credential stores
  '**/.git',
  '**/.git-credentials',
  '**/.npmrc',
  '**/.yarnrc.yml',
  '**/.pypirc',
  '**/.netrc',
  '**/_netrc',
  '**/.pgpass',
  '**/.my.cnf',
  '**/.htpasswd',
  '**/.ssh',
  '**/.gnupg',
  '**/.password-store',
  '**/.vault-token',
  // Cloud, cluster and container credentials (whole folders where the tool keeps tokens in caches too)
  '**/.aws',
  '**/.azure',
  '**/gcloud/application_default_credentials.json',
  '**/application_default_credentials.json',
  '**/gcloud/credentials.db',
  '**/gcloud/access_tokens.db',
  '**/gcloud/legacy_credentials',
  '**/.docker/config.json',
  '**/.kube',
  '**/kubeconfig',
  '**/*.kubeconfig',
  '**/kubeconfig.y{,a}ml',
  '**/.oci/config',
  '**/.databrickscfg',
  '**/.s3cfg',
  '**/.boto',
  '**/.terraformrc',
  '**/.terraform.d/credentials.tfrc.json',
  '**/*.tfstate',
  '**/*.tfstate.backup',
  '**/*.tfvars',
  '**/*.tfvars.json',
  '**/.pulumi/credentials.json',
  '**/rclone.conf',
  // Developer tools' tokens: GitHub CLI, hub, Cargo, Maven, Gradle, RubyGems, Composer
  '**/gh/hosts.yml',
  '**/.config/hub',
  '**/.cargo/credentials',
  '**/.cargo/credentials.toml',
  '**/.m2/settings.xml',
  '**/.m2/settings-security.xml',
  '**/.gradle/gradle.properties',
  '**/.gem/credentials',
  '**/.composer/auth.json',
];

/**
 * A user's glob: workspace-relative as in files.exclude, except that a pattern without a slash
 * names a file at any depth (`*.secret` means every .secret file, as in a .gitignore).
 */
export function userGlob(glob: string): string {
  const clean = glob.trim().replace(/^\.\//, '');
  return clean.includes('/') ? clean.replace(/^\//, '') : `**/${clean}`;
}

/**
 * Which sensitive pattern a workspace-relative path falls under (the path itself or one of its
 * folders: everything inside `.git/` or `.ssh/` is sensitive), or undefined. `anchored` false:
 * `path` is a real absolute path (a folder opened at `~/.aws` serves `credentials`, which only the
 * absolute path tells), tried against the globs that match at any depth only. `checkedDepth`:
 * that many leading folders were checked already (a walk, the workspace folder's own path).
 */
export function sensitiveMatcher(
  extra: readonly string[] = [],
  anchored = true,
): (path: string, checkedDepth?: number) => string | undefined {
  const patterns: Array<[string, PathMatcher]> = [
    ...BUILT_IN_SENSITIVE_FILES.filter((glob) => anchored || glob.startsWith('**/')).map(
      (glob): [string, PathMatcher] => [glob, compileGlob(glob, true)],
    ),
    ...extra
      .filter((glob) => glob.trim() && (anchored || userGlob(glob).startsWith('**/')))
      .map((glob): [string, PathMatcher] => [glob.trim(), compileGlob(userGlob(glob), true, 'everything')]),
  ];
  return (path, checkedDepth = 0) => {
    for (const prefix of pathPrefixes(path.replace(/\\/g, '/').split('/').filter(Boolean).join('/')).slice(
      checkedDepth,
    )) {
      const hit = patterns.find(([, matches]) => matches(prefix));
      if (hit) return hit[0];
    }
    return undefined;
  };
}
