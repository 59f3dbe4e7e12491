/** The environment of a CLI run whose model is a loopback server (no key of the user's leaks in). */
export function modelEnv(url: string, cacheDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { SMI_API_KEY: 'sk-test', SMI_API_BASE_URL: url, SMI_MODEL: 'fake-model', SMI_CACHE_DIR: cacheDir, OPENAI_API_KEY: '', OPENROUTER_API_KEY: '', ...extra };
}
