// Fingers on the map before sigma is made (the early input, as the mouse's press and wheel): those still down when
// sigma is ready are handed to its touch layer as a touchstart where they went down and a touchmove to where they are,
// so a drag, a pan or a pinch goes on (sigma follows the later real touches: they bubble to the document, where it
// listens); a pinch made whole before then is replayed to it, as a wheel turn is kept. A mousedown, as the mouse's press
// is handed over, would leave sigma deaf to the fingers and holding a node for the next gesture to drag.

interface Finger { id: number; startX: number; startY: number; x: number; y: number }

export interface EarlyTouches {
  down(e: PointerEvent): void;
  move(e: PointerEvent): void;
  /** A finger lifted; answers whether more than one was down during this touch (its release is then no tap). */
  up(e: PointerEvent): boolean;
  /** Hands the fingers held now and the pinches kept to sigma's touch layer. */
  handOver(layer: HTMLElement): void;
}

export function createEarlyTouches(): EarlyTouches {
  const fingers = new Map<number, Finger>();
  const pinches: Finger[][] = [];
  let multi = false;
  let handed = false;

  function send(layer: HTMLElement, type: "touchstart" | "touchmove" | "touchend", down: Array<{ id: number; x: number; y: number }>, changed = down) {
    const list = (ps: typeof down) => ps.map((p) => new Touch({ identifier: p.id, target: layer, clientX: p.x, clientY: p.y, pageX: p.x + scrollX, pageY: p.y + scrollY }));
    layer.dispatchEvent(new TouchEvent(type, { bubbles: true, cancelable: true, touches: list(down), targetTouches: list(down), changedTouches: list(changed) }));
  }
  const starts = (fs: Finger[]) => fs.map((f) => ({ id: f.id, x: f.startX, y: f.startY }));
  const nows = (fs: Finger[]) => fs.map((f) => ({ id: f.id, x: f.x, y: f.y }));

  return {
    down(e) {
      if (e.pointerType !== "touch") return;
      fingers.set(e.pointerId, { id: e.pointerId, startX: e.clientX, startY: e.clientY, x: e.clientX, y: e.clientY });
      if (fingers.size > 1) multi = true;
    },
    move(e) {
      const f = fingers.get(e.pointerId);
      if (f) { f.x = e.clientX; f.y = e.clientY; }
    },
    up(e) {
      if (!fingers.has(e.pointerId)) return false;
      const wasMulti = multi;
      // The first of two fingers to lift ends a pinch: kept for sigma, unless sigma already followed it.
      if (fingers.size === 2 && !handed) pinches.push([...fingers.values()].map((f) => ({ ...f })));
      fingers.delete(e.pointerId);
      if (fingers.size === 0) { multi = false; handed = false; }
      return wasMulti;
    },
    handOver(layer) {
      if (typeof TouchEvent !== "function" || typeof Touch !== "function") return;
      for (const pinch of pinches.splice(0)) {
        send(layer, "touchstart", starts(pinch));
        send(layer, "touchmove", nows(pinch));
        send(layer, "touchend", [], nows(pinch));
      }
      const held = [...fingers.values()];
      if (!held.length) return;
      handed = true;
      send(layer, "touchstart", starts(held));
      if (held.some((f) => f.x !== f.startX || f.y !== f.startY)) send(layer, "touchmove", nows(held));
    },
  };
}
