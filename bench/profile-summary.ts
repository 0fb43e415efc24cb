/**
 * Sums the self time of `.cpuprofile` files (bench/api.ts with BENCH_PROFILE=<dir>) so that one can
 * see where a signed call's time goes: the top functions, and the time by owner, where node's own
 * internals (`node:*`, natives) are counted to the nearest caller that is not one of them, and an
 * owner is a package (`node_modules/<name>`) or a source file of this repository. Idle time and
 * the bench's own code (stopping the profiler) are left out; garbage collection is its own line.
 * The profiler samples wall time, so a busy machine inflates what waits in the kernel (a socket's
 * writev) against what runs.
 *
 *   npx tsx bench/profile-summary.ts /tmp/prof/sqlite-introspect-*.cpuprofile
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile>…');
  process.exit(2);
}

const byFunction = new Map<string, number>();
const byOwner = new Map<string, number>();
const byCaller = new Map<string, number>();
let total = 0;

const isInternal = (url: string) => url === '' || url.startsWith('node:');
function ownerOf(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1]!;
  const inRepo = /\/((?:server|src|bench)\/.+)$/.exec(path);
  return inRepo ? inRepo[1]! : path;
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  /** The bench's own code (e.g. stopping the profiler): not the server's time. */
  const underBench = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      if (nodes.get(at)!.callFrame.url.endsWith('bench/api.ts')) return true;
    return false;
  };
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    if (functionName === '(idle)' || underBench(id)) continue;
    total += us;
    const where = url ? `${ownerOf(url)}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    let owner: string;
    if (functionName === '(garbage collector)') owner = '(garbage collector)';
    else if (functionName === '(program)') owner = '(program: native, not attributed)';
    else {
      let at: number | undefined = id;
      while (at !== undefined && isInternal(nodes.get(at)!.callFrame.url)) at = parent.get(at);
      owner = at === undefined ? '(node internals)' : ownerOf(nodes.get(at)!.callFrame.url);
      const caller = at === undefined ? null : nodes.get(at)!.callFrame;
      const callerName = caller
        ? `${caller.functionName || '(anonymous)'} ${ownerOf(caller.url)}:${caller.lineNumber + 1}`
        : '(node internals)';
      byCaller.set(callerName, (byCaller.get(callerName) ?? 0) + us);
    }
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
  }
}

const print = (title: string, table: Map<string, number>, rows: number) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...table].sort((a, b) => b[1] - a[1]).slice(0, rows))
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`);
};
console.log(`${files.length} profile(s), ${(total / 1e6).toFixed(2)} s of samples (idle left out)`);
print('by owner (node internals counted to their caller)', byOwner, 30);
print('by function (self time)', byFunction, 40);
print('by function, node internals counted to their caller', byCaller, 40);
