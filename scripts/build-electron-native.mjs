// Builds better-sqlite3 for Electron's ABI into out/native/, beside (not over) the plain-Node build
// that tests and the headless server use. The database layer loads it through better-sqlite3's
// `nativeBinding` option when GATEHOUSE_SQLITE_BINDING names it. Needs Electron's headers (network).
import { cpSync, existsSync, mkdirSync, copyFileSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'out', 'native', 'better_sqlite3.node');
const electronVersion = JSON.parse(
  readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
).version;
const sqliteVersion = JSON.parse(
  readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'),
).version;
// Both versions: a better-sqlite3 upgrade needs a new build as much as an Electron one does.
const stamp = join(root, 'out', 'native', `electron-${electronVersion}-better-sqlite3-${sqliteVersion}`);
if (existsSync(target) && existsSync(stamp)) process.exit(0);

const work = join(root, '.tmp', 'electron-native', 'better-sqlite3');
rmSync(work, { recursive: true, force: true });
cpSync(join(root, 'node_modules', 'better-sqlite3'), work, {
  recursive: true,
  filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`),
});
console.log(`gatehouse: building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (once)`);
// npm's own node-gyp (the one that built the plain-Node copy, which npm names to the scripts it runs);
// outside npm, a pinned one.
const nodeGyp = process.env.npm_config_node_gyp
  ? [process.execPath, process.env.npm_config_node_gyp]
  : ['npx', '--yes', 'node-gyp@12.4.0'];
const gyp = spawnSync(
  nodeGyp[0],
  [
    ...nodeGyp.slice(1),
    'rebuild',
    '--release',
    `--target=${electronVersion}`,
    '--runtime=electron',
    '--dist-url=https://electronjs.org/headers',
  ],
  { cwd: work, stdio: 'inherit' },
);
if (gyp.status !== 0) {
  console.error('gatehouse: could not build better-sqlite3 for Electron (are Electron headers reachable?)');
  process.exit(1);
}
mkdirSync(dirname(target), { recursive: true });
copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), target);
copyFileSync(target, stamp);
