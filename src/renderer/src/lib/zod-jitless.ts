import { z } from 'zod';

// The UI's content security policy allows no eval: without this, zod's first parse probes for it with
// `new Function`, which the browser reports as a policy violation on every page. Imported first by
// main.tsx, so it runs before any module parses at load.
z.config({ jitless: true });
