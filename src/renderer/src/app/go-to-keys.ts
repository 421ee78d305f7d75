/** "g" followed by one of these keys goes to a screen (as in GitHub and Linear). */
export const GO_TO_KEYS: Readonly<Record<string, { readonly path: string; readonly label: string }>> = {
  o: { path: '', label: 'Overview' },
  h: { path: 'store/history', label: 'History' },
  d: { path: 'store/documents', label: 'Documents' },
  c: { path: 'store/compare', label: 'Compare' },
  b: { path: 'store/branches', label: 'Branches' },
  p: { path: 'store/checkpoints', label: 'Checkpoints' },
  n: { path: 'store/maintenance', label: 'Maintenance' },
  t: { path: 'gateway/traffic', label: 'Live traffic' },
  k: { path: 'gateway/keys', label: 'Keys' },
  e: { path: 'gateway/people', label: 'Users & teams' },
  m: { path: 'gateway/models', label: 'Models' },
  u: { path: 'gateway/usage', label: 'Usage' },
  i: { path: 'gateway/guardrails', label: 'PII & policy' },
  l: { path: 'gateway/collections', label: 'Collections' },
  a: { path: 'gateway/cache', label: 'Cache' },
  r: { path: 'gateway/audit', label: 'Audit' },
};
