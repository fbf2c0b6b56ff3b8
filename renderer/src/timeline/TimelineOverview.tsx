/**
 * The overview strip: the whole range (every fact, and now) with where facts begin and end drawn as
 * a density, and the visible window as a box on it. Click or drag on the strip to move the window
 * there (its span kept); with focus, ← / → move it, Home / End go to the ends.
 */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTimeFormat } from '../app/time-format';
import { formatMoment } from '../common/format';
import type { Density } from './timeline-fit';
import { msOf, pan, xOf, type Domain } from './timeline-scale';

export const OVERVIEW_HEIGHT = 22;

interface Props {
  whole: Domain;
  domain: Domain;
  density: Density | null | undefined;
  width: number;
  labelWidth: number;
  setDomain(domain: Domain): void;
}

export function TimelineOverview({ whole, domain, density, width, labelWidth, setDomain }: Props) {
  const format = useTimeFormat();
  const el = useRef<SVGSVGElement>(null);
  const dragging = useRef(false);
  const span = domain.to - domain.from;
  const moveTo = (event: PointerEvent) => {
    const rect = el.current?.getBoundingClientRect();
    if (!rect) return;
    const center = msOf(event.clientX - rect.left, whole, width);
    setDomain({ from: center - span / 2, to: center + span / 2 });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, () => Domain> = {
      ArrowLeft: () => pan(domain, -span * 0.15),
      ArrowRight: () => pan(domain, span * 0.15),
      Home: () => ({ from: whole.from, to: whole.from + span }),
      End: () => ({ from: whole.to - span, to: whole.to }),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    setDomain(move());
  };
  const max = Math.max(1, ...(density?.counts ?? [1]));
  const bucket = density ? (density.to - density.from) / Math.max(1, density.counts.length) : 0;
  const x1 = Math.max(0, xOf(domain.from, whole, width));
  const x2 = Math.min(width, Math.max(x1 + 3, xOf(domain.to, whole, width)));
  return (
    <div className="tl-overview-row">
      <div className="tl-overview-corner" style={{ width: labelWidth }}>
        Overview
      </div>
      <svg
        ref={el}
        className="tl-overview"
        width={width}
        height={OVERVIEW_HEIGHT}
        role="slider"
        tabIndex={0}
        aria-label="Visible window on the whole timeline (click or drag to move it, or use the arrow keys)"
        aria-valuemin={Math.round(whole.from)}
        aria-valuemax={Math.round(whole.to)}
        aria-valuenow={Math.round((domain.from + domain.to) / 2)}
        aria-valuetext={`${formatMoment(domain.from, format)} to ${formatMoment(domain.to, format)}`}
        data-from={whole.from}
        data-to={whole.to}
        onKeyDown={onKeyDown}
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          dragging.current = true;
          event.currentTarget.setPointerCapture(event.pointerId);
          moveTo(event);
        }}
        onPointerMove={(event) => dragging.current && moveTo(event)}
        onPointerUp={() => (dragging.current = false)}
        onPointerCancel={() => (dragging.current = false)}
      >
        {density?.counts.map((count, i) => {
          if (count === 0) return null;
          const a = xOf(density.from + i * bucket, whole, width);
          const b = xOf(density.from + (i + 1) * bucket, whole, width);
          const h = 3 + (count / max) * (OVERVIEW_HEIGHT - 6);
          return <rect key={i} className="tl-density" x={a} y={OVERVIEW_HEIGHT - h} width={Math.max(1, b - a)} height={h} />;
        })}
        <rect className="tl-overview-window" x={x1} y={1} width={x2 - x1} height={OVERVIEW_HEIGHT - 2} rx={3} data-testid="overview-window" />
      </svg>
    </div>
  );
}
