// Dependency hygiene (run by `npm run lint`): the installed tree is what the
// lockfile promises (`npm ls` finds no invalid, missing or extraneous
// package), and the web build's tools exist once (two copies of vite would
// build with one and test with the other).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { ROOT } from './build.mjs';

const npmLs = (...args) => {
  const r = spawnSync('npm', ['ls', '--all', '--json', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, tree: JSON.parse(r.stdout || '{}') };
};

/** Every folder `name` is installed in, from an `npm ls --long --json` tree. */
function copiesOf(tree, name, found = new Set()) {
  for (const [dep, node] of Object.entries(tree.dependencies ?? {})) {
    if (dep === name && node.path) found.add(node.path);
    copiesOf(node, name, found);
  }
  return found;
}

describe('dependencies', () => {
  it('npm ls --all reports no problem', () => {
    const { status, tree } = npmLs();
    assert.deepEqual(tree.problems ?? [], []);
    assert.equal(status, 0);
  });

  it('installs one copy of vite', () => {
    const { tree } = npmLs('--long', 'vite');
    const paths = [...copiesOf(tree, 'vite')];
    assert.equal(paths.length, 1, paths.join(', '));
  });
});
