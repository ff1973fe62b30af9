// The layout worker: runs the force layout (force.ts) off the page's thread and posts positions back, a few times a
// second while it runs and once at the end. Bundled on its own (src/modules/web/assets.ts) and served from /assets/.
import { runLayout, type LayoutInput } from "./force";
import type { LayoutReply } from "./layout";

interface WorkerScope {
  onmessage: ((e: MessageEvent<LayoutInput & { everyMs: number }>) => void) | null;
  postMessage(message: LayoutReply, transfer: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = (e) => {
  const started = performance.now();
  runLayout(e.data, ({ positions, tick, done }) => {
    // A copy per message: the simulation keeps its own array, and the copy's buffer moves to the page without copying.
    const copy = new Float64Array(positions);
    scope.postMessage({ positions: copy, tick, done, ms: performance.now() - started }, [copy.buffer]);
  }, e.data.everyMs);
};
