import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { hostIdentity, isZombie, processExists } from './host-identity.ts';
import { SqliteCheckpointer } from './sqlite-checkpointer.ts';

const onLinux = process.platform === 'linux';

/**
 * Makes a zombie on purpose: the shell starts a short `sleep` in the background, prints its
 * pid, then becomes a long `sleep` itself — which never waits for children, so the short
 * one stays unreaped (a zombie) once it exits. Resolves to the zombie's and the parent's pids.
 */
async function makeZombie(): Promise<{ zombie: number; parent: number; stop: () => void }> {
  const child = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => child.kill('SIGKILL');
  after(stop);
  const zombie = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    child.once('error', reject);
  });
  for (let tries = 0; tries < 200; tries += 1) {
    if (readFileSync(`/proc/${zombie}/stat`, 'latin1').includes(') Z ')) break;
    await sleep(10);
  }
  return { zombie, parent: child.pid as number, stop };
}

describe('host identity', { skip: !onLinux && 'zombies are read from /proc (Linux)' }, () => {
  it('counts an unreaped child that has exited (a zombie) as dead, though signal 0 still reaches it', async () => {
    const { zombie, parent } = await makeZombie();
    assert.doesNotThrow(() => process.kill(zombie, 0), 'signal 0 succeeds on a zombie');
    assert.equal(isZombie(zombie), true);
    assert.equal(processExists(zombie), false);
    assert.equal(processExists(parent), true, 'the sleeping parent is alive');
    assert.equal(processExists(process.pid), true);
  });

  it('lets a run owned by a zombie process be taken over at once, not after its lease', async () => {
    const { zombie, parent } = await makeZombie();
    const checkpointer = new SqliteCheckpointer();
    try {
      const beat = checkpointer.database.prepare(
        'INSERT INTO graph_instances (instance_id, heartbeat_at, host, pid) VALUES (?, ?, ?, ?)',
      );
      beat.run('killed-server', Date.now(), hostIdentity(), zombie);
      beat.run('sleeping-server', Date.now(), hostIdentity(), parent);
      assert.equal(await checkpointer.isAlive('killed-server'), false);
      assert.equal(await checkpointer.isAlive('sleeping-server'), true);
    } finally {
      await checkpointer.close();
    }
  });
});
