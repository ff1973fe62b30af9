// How sigma draws a hovered, selected or focused node: the page's surface and text colours (sigma's built-in hover box
// is white in every theme), a soft shadow, and the node's label beside it.
import type { Settings } from "sigma/settings";
import type { NodeDisplayData, PartialButFor } from "sigma/types";
import type { Palette } from "./palette";

export function labelSettings<N extends Record<string, any>, E extends Record<string, any>>(p: Palette): Partial<Settings<N, E>> {
  return {
    labelColor: { color: p.text },
    labelFont: p.font,
    defaultDrawNodeHover: (ctx: CanvasRenderingContext2D, d: PartialButFor<NodeDisplayData, "x" | "y" | "size" | "label" | "color">, s: Settings<N, E>) => {
      const size = s.labelSize;
      ctx.font = `${s.labelWeight} ${size}px ${s.labelFont}`;
      ctx.beginPath();
      ctx.arc(d.x, d.y, d.size + 3, 0, Math.PI * 2);
      ctx.fillStyle = p.surface;
      ctx.shadowBlur = 6;
      ctx.shadowColor = "rgba(0,0,0,0.35)";
      ctx.fill();
      if (d.label) {
        const w = ctx.measureText(d.label).width;
        ctx.fillRect(d.x + d.size + 1, d.y - size / 2 - 4, w + 8, size + 8);
      }
      ctx.shadowBlur = 0;
      ctx.beginPath();
      ctx.arc(d.x, d.y, d.size, 0, Math.PI * 2);
      ctx.fillStyle = d.color;
      ctx.fill();
      if (d.label) {
        ctx.fillStyle = p.text;
        ctx.fillText(d.label, d.x + d.size + 5, d.y + size / 3);
      }
    },
  };
}
