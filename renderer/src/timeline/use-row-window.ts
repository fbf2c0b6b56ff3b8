/** The timeline's rows in view as its body scrolls (their positions: row-offsets.ts). */
import { useEffect, useMemo, useState, type RefObject } from 'react';
import { rowOffsets, rowsInView } from './row-offsets';

/** The rows in view of the scrolling element `body` (`height` px high), following its scroll. */
export function useRowWindow(body: RefObject<HTMLElement | null>, rows: readonly ({ height: number } | undefined)[], placeholder: number, height: number, overscan = 5) {
  const [top, setTop] = useState(0);
  useEffect(() => {
    const element = body.current;
    if (!element) return;
    const onScroll = () => setTop(element.scrollTop);
    onScroll();
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [body]);
  const offsets = useMemo(() => rowOffsets(rows, placeholder), [rows, placeholder]);
  const items = useMemo(() => rowsInView(offsets, top, height, overscan), [offsets, top, height, overscan]);
  return { items, totalSize: offsets.totalSize, scrollBy: (px: number) => body.current?.scrollBy({ top: px }) };
}
