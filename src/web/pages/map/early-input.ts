// The pointer before sigma is made: pointing at or pressing on the map makes sigma; a press still held when it is ready
// is handed to it (so a drag or pan goes on), a click before then selects the idea under it, a connecting drag made whole
// before then connects the two ideas, and a wheel turn is kept and handed over (the page does not scroll under the map
// meanwhile). Fingers likewise, through early-touch.ts (held ones go on in sigma, a whole pinch is kept as a zoom).
import { createEarlyTouches } from "./early-touch";

export interface EarlyInputOptions {
  /** Whether sigma is made (from then on it answers the pointer itself). */
  ready(): boolean;
  /** Makes sigma now. */
  wake(): void;
  /** The node under a container point, if any (the first view's placing). */
  nodeAt(x: number, y: number): number | null;
  canConnect: boolean;
  connectMode(): boolean;
  /** Whether sigma saw the handed-over press move (then its release is sigma's, not a click). */
  moved(): boolean;
  connect(source: number, target: number): void;
  select(id: number): void;
}

export interface EarlyInput {
  /** Hands a held press and a kept wheel turn to sigma's mouse layer, as if they had happened there. */
  handOver(): void;
  /** Stops making sigma on pointer and wheel (it is made, or cannot be); a held press is still followed to its release. */
  stop(): void;
  kill(): void;
}

export function createEarlyInput(container: HTMLElement, o: EarlyInputOptions): EarlyInput {
  // Fingers are followed by early-touch.ts as well (handed to sigma's touch layer, not as a mouse press).
  let press: { id: number; touch: boolean; x: number; y: number; startX: number; startY: number; shift: boolean; handed: boolean } | null = null;
  const touches = createEarlyTouches();
  let wheel: { deltaY: number; x: number; y: number } | null = null;
  const onOver = () => { if (!o.ready()) o.wake(); };
  const onDown = (e: PointerEvent) => {
    if (o.ready() || e.button !== 0) return;
    touches.down(e);
    if (press?.touch && e.pointerType === "touch") return;
    press = { id: e.pointerId, touch: e.pointerType === "touch", x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY, shift: e.shiftKey, handed: false };
    o.wake();
  };
  const onMove = (e: PointerEvent) => {
    touches.move(e);
    if (press?.id === e.pointerId) { press.x = e.clientX; press.y = e.clientY; }
  };
  const onUp = (e: PointerEvent) => {
    // Two fingers down (a pinch) make no tap and no connecting drag.
    const pinched = touches.up(e);
    if (press?.id !== e.pointerId) return;
    const p = press;
    press = null;
    if (pinched || e.type === "pointercancel") return;
    const r = container.getBoundingClientRect();
    const at = (x: number, y: number) => o.nodeAt(x - r.left, y - r.top);
    if (Math.hypot(e.clientX - p.startX, e.clientY - p.startY) > 4) {
      // A whole connecting drag made before sigma was ready (right after switching connect mode on, on a slow
      // machine) never reaches sigma: it connects the two ideas as sigma's drag would, instead of being lost.
      if (!p.handed && o.canConnect && (o.connectMode() || p.shift)) {
        const from = at(p.startX, p.startY), to = at(e.clientX, e.clientY);
        if (from !== null && to !== null && from !== to) o.connect(from, to);
      }
      return;
    }
    // A press that began before sigma existed never reaches sigma as a click: a short one selects the idea under it.
    if (p.handed && o.moved()) return;
    const id = at(e.clientX, e.clientY);
    if (id !== null) o.select(id);
  };
  const onWheel = (e: WheelEvent) => {
    if (o.ready()) return;
    e.preventDefault();
    wheel = { deltaY: (wheel?.deltaY ?? 0) + e.deltaY, x: e.clientX, y: e.clientY };
    o.wake();
  };
  container.addEventListener("pointerover", onOver);
  container.addEventListener("pointerdown", onDown);
  container.addEventListener("wheel", onWheel, { passive: false });
  window.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", onUp);
  window.addEventListener("pointercancel", onUp);
  // The press's move and release listeners stay until the view goes: a press handed to sigma ends after the swap.
  const stop = () => {
    container.removeEventListener("pointerover", onOver);
    container.removeEventListener("pointerdown", onDown);
    container.removeEventListener("wheel", onWheel);
  };

  function handOver() {
    const layer = container.querySelector<HTMLElement>(".sigma-mouse");
    if (!layer) return;
    if (press?.touch) press.handed = true;
    touches.handOver(layer);
    if (press && !press.touch) {
      // Pressed where the person pressed (the idea they took hold of), then moved to where the pointer is now.
      press.handed = true;
      layer.dispatchEvent(new MouseEvent("mousedown", { bubbles: true, cancelable: true, clientX: press.startX, clientY: press.startY, button: 0, buttons: 1, shiftKey: press.shift }));
      if (press.x !== press.startX || press.y !== press.startY) {
        document.dispatchEvent(new MouseEvent("mousemove", { bubbles: true, cancelable: true, clientX: press.x, clientY: press.y, button: 0, buttons: 1, shiftKey: press.shift }));
      }
    }
    if (wheel) {
      layer.dispatchEvent(new WheelEvent("wheel", { bubbles: true, cancelable: true, clientX: wheel.x, clientY: wheel.y, deltaY: wheel.deltaY, deltaMode: 0 }));
      wheel = null;
    }
  }

  return {
    handOver,
    stop,
    kill() {
      stop();
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", onUp);
      window.removeEventListener("pointercancel", onUp);
    },
  };
}
