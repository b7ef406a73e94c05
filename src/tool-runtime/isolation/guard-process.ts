// Inside a tool host, before any tool code runs: what a tool could use through `process` to end or
// signal Riverse itself is closed off. In a worker thread `process.kill(process.pid)` (and the raw
// `_kill` behind it) would end the whole assistant; in a child process the same goes for its parent.
// Node itself already refuses abort(), chdir() and umask() in workers; exit() ends only the worker.

/** Throws for a signal aimed at Riverse (its pid, or a process group, which includes it). */
function refuseHost(hostPid: number, pid: unknown): void {
  const target = Number(pid);
  if (target === hostPid || target <= 0 || (process.pid === hostPid && target === process.pid)) {
    throw Object.assign(
      new Error(
        `a tool may not signal the Riverse process (pid ${hostPid}) or a process group; to stop itself, a tool returns or throws`,
      ),
      { code: 'ERR_RIVERSE_PROCESS_GUARD' },
    );
  }
}

export function guardProcess(hostPid: number): void {
  const kill = process.kill.bind(process);
  // process.kill() calls process._kill(): the guarded _kill must call the raw one, not kill().
  const rawKill = (process as unknown as { _kill: (pid: number, signal: number) => number })._kill.bind(process);
  const guarded = {
    kill(pid: number, signal?: string | number): true {
      refuseHost(hostPid, pid);
      return kill(pid, signal);
    },
    _kill(pid: number, signal: number): number {
      refuseHost(hostPid, pid);
      return rawKill(pid, signal);
    },
    // Deprecated doors into Node's internals, where the raw kill and exit live.
    binding(): never {
      throw new Error('process.binding() is not available to tools');
    },
    _linkedBinding(): never {
      throw new Error('process._linkedBinding() is not available to tools');
    },
  };
  for (const [name, value] of Object.entries(guarded)) {
    Object.defineProperty(process, name, { value, writable: false, configurable: false, enumerable: false });
  }
}
