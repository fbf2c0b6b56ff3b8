/**
 * What the timeline's marks mean, in the toolbar: a "Legend" button that opens a small panel with a
 * sample of every bar style drawn with the chart's own classes (so it shows what the chart shows, in
 * light and dark): still true, true until an end to come, ended, true or not at the as-of date, a summary bar with its ticks,
 * the hook from an ended fact to the one that replaced it, the as-of cursor and now. The hook and the
 * cursor share one colour (--link-line, in light and dark), so the words name them by shape. Escape
 * (focus back on the button) or a click elsewhere closes the panel: it lies over the chart's right end.
 */
import { useEffect, useRef, type ReactNode } from 'react';

const W = 46;
const H = 18;

function Sample({ children }: { children: ReactNode }) {
  return (
    <svg className="tl-legend-sample" width={W} height={H} viewBox={`0 0 ${W} ${H}`} aria-hidden="true">
      {children}
    </svg>
  );
}

const bar = <rect x={2} y={3} width={W - 12} height={12} rx={3} />;

const ITEMS: { key: string; sample: ReactNode; text: string }[] = [
  {
    key: 'open',
    sample: (
      <g className="tl-bar open asof">
        {bar}
        <path className="tl-open-end" d={`M${W - 11},3 l6,6 l-6,6 z`} />
      </g>
    ),
    text: 'Solid, with an arrow: still true (it goes on past now)',
  },
  {
    key: 'ends',
    sample: (
      <g className="tl-bar open ends asof">
        {bar}
        <line className="tl-close-cap" x1={W - 10} x2={W - 10} y1={1} y2={17} />
      </g>
    ),
    text: 'Solid, with a dashed end line: still true, until the line (an end to come)',
  },
  {
    key: 'closed',
    sample: (
      <g className="tl-bar closed asof">
        {bar}
        <line className="tl-close-cap" x1={W - 10} x2={W - 10} y1={1} y2={17} />
      </g>
    ),
    text: 'Grey, with an end line: ended (the line is when)',
  },
  { key: 'asof', sample: <g className="tl-bar open asof">{bar}</g>, text: 'Outlined: true at the as-of date' },
  {
    key: 'not-asof',
    sample: (
      <>
        <g className="tl-bar open not-asof">
          <rect x={2} y={3} width={19} height={12} rx={3} />
        </g>
        <g className="tl-bar closed not-asof">
          <rect x={23} y={3} width={19} height={12} rx={3} />
        </g>
      </>
    ),
    text: 'Pale: not true at the as-of date',
  },
  {
    key: 'summary',
    sample: (
      <g className="tl-summary">
        {bar}
        <g className="tl-marks">
          {[6, 14, 15, 27].map((x, i) => (
            <rect key={x} className="tl-mark" x={x} y={i === 1 ? 5 : 9} width={2} height={i === 1 ? 9 : 5} />
          ))}
        </g>
      </g>
    ),
    text: 'Dashed, with ticks: many facts as one bar (a closed group, a folded row); ticks where facts begin, end or change, taller where more do',
  },
  {
    key: 'link',
    sample: <path className="tl-link" d="M8,14 C8,3 34,3 34,13" markerEnd="url(#tl-arrow)" />,
    text: 'Curved hook with an arrow: from an ended fact to the one that replaced it',
  },
  {
    key: 'elsewhere',
    sample: (
      <g className="tl-link-elsewhere">
        <circle cx={W / 2} cy={H / 2} r={4} />
      </g>
    ),
    text: 'Ring: ended by a fact in another row, or one not shown',
  },
  {
    key: 'cursor',
    sample: <line className="tl-legend-cursor" x1={W / 2} x2={W / 2} y1={0} y2={H} />,
    text: 'Upright line across the rows: the as-of date the answers are for (drag it on the axis)',
  },
];

export function TimelineLegend() {
  const details = useRef<HTMLDetailsElement>(null);
  // Listening always, acting while the panel is open: `open` is set as Enter is pressed, its toggle
  // event (and a listener added after it) only a task later — an Escape pressed at once still closes.
  useEffect(() => {
    const isOpen = () => details.current?.open === true;
    const close = () => {
      if (details.current) details.current.open = false;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !isOpen()) return;
      close();
      details.current?.querySelector('summary')?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (isOpen() && !details.current?.contains(e.target as Node)) close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, []);
  return (
    <details ref={details} className="tl-legend" data-testid="timeline-legend">
      <summary>Legend</summary>
      <ul className="tl-legend-list">
        {ITEMS.map((item) => (
          <li key={item.key} data-style={item.key}>
            <Sample>{item.sample}</Sample>
            <span>{item.text}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
