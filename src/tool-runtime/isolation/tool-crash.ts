/** A call that ended because its worker stopped (exit, crash, memory limit, or stopped for hanging). */
export class ToolCrash extends Error {
  override name = 'ToolCrash';
}
