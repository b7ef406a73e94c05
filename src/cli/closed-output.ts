/**
 * A reader that stops early (`npx riverse --help | head -8`, `tools list | grep -m1 …`) closes our
 * stdout; the next write fails with EPIPE, which Node raises as an unhandled 'error' and a stack trace.
 * There is nobody left to tell, so the command ends quietly instead, as `cat` or `git` do.
 */
export function endQuietlyOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit();
      throw error;
    });
  }
}
