/**
 * Zoom and pan of the timeline by pointer: Ctrl/⌘ + wheel zooms around the pointer, Shift + wheel or a
 * horizontal wheel pans, dragging the chart pans (a drag never counts as a click on a bar).
 */
import { useEffect, useRef, type PointerEvent, type RefObject } from 'react';
import { msOf, pan, zoom, type Domain } from './timeline-scale';

interface Options {
  body: RefObject<HTMLDivElement | null>;
  domain: Domain;
  width: number;
  labelWidth: number;
  setDomain: (domain: Domain) => void;
}

export function useChartGestures({ body, domain, width, labelWidth, setDomain }: Options) {
  const latest = useRef({ domain, width, setDomain });
  latest.current = { domain, width, setDomain };
  const drag = useRef<{ x: number; domain: Domain; moved: boolean; pointerId: number } | null>(null);
  const suppressClick = useRef(false);

  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      const { domain: d, width: w, setDomain: set } = latest.current;
      const rect = el.getBoundingClientRect();
      const x = event.clientX - rect.left - labelWidth;
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        set(zoom(d, Math.exp(event.deltaY * 0.002), msOf(Math.max(0, x), d, w)));
      } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        event.preventDefault();
        const px = Math.abs(event.deltaX) > Math.abs(event.deltaY) ? event.deltaX : event.deltaY;
        set(pan(d, (px / Math.max(1, w)) * (d.to - d.from)));
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [body, labelWidth]);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || event.pointerType === 'touch') return;
    drag.current = { x: event.clientX, domain, moved: false, pointerId: event.pointerId };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = event.clientX - d.x;
    if (!d.moved && Math.abs(dx) < 4) return;
    if (!d.moved) {
      d.moved = true;
      event.currentTarget.setPointerCapture(d.pointerId);
    }
    setDomain(pan(d.domain, (-dx / Math.max(1, width)) * (d.domain.to - d.domain.from)));
  };
  const onPointerUp = () => {
    if (drag.current?.moved) {
      suppressClick.current = true;
      setTimeout(() => (suppressClick.current = false), 0);
    }
    drag.current = null;
  };
  return { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp, suppressClick };
}
