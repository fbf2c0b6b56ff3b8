/**
 * A virtualised list (@tanstack/react-virtual): only the rows in view (plus a few) are in the DOM,
 * so tens of thousands of items stay fast. Rows have a fixed height, or with `measureRows` at least
 * rowHeight and as tall as their content (a row that wraps in a narrow window is measured, not cut). Keyboard: the list is one tab stop;
 * ↑/↓, PageUp/PageDown, Home/End move the active row (scrolled into view), Enter opens it. Back from
 * an item opened (`returnTo`, its key), the list takes the focus with that row active, once it is
 * loaded — unless the user has put the focus somewhere else first.
 */
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  /** Rows as tall as their content (at least rowHeight), measured as they are shown. */
  measureRows?: boolean;
  getKey(item: T): string;
  renderRow(item: T, state: { index: number; active: boolean }): ReactNode;
  onActivate?(item: T): void;
  label: string;
  overscan?: number;
  className?: string;
  /**
   * Called when the rows in view come within a screen of the last item (to load the next page):
   * once each time the last row in view or the number of items changes while it is so, never on a
   * mere re-render. `scrolled`: the list was scrolled since the last call. A list shorter than its
   * viewport cannot scroll and has its end always in view, so a caller that loads on every call
   * should bound the pages it loads unscrolled (AsOfPanel: use-as-of-facts.ts).
   */
  onEndReached?(reason: EndReached): void;
  /** The key of an item opened from this list, now returned from: focused and active once it is in `items`. */
  returnTo?: string | null;
  /** Whether the rows shown are being asked for again (a new answer on its way): aria-busy. */
  busy?: boolean;
}

/**
 * The viewport's size from a ResizeObserver only. The library's own observer also reads the size
 * at once when the list mounts (clientHeight), which forces the browser to lay the whole page out
 * in the middle of React's commit — a screen's first content paid that layout twice. The
 * observer's first callback comes after the frame's layout and before its paint, so the rows in
 * view are still there in the first frame; until then the window's height stands in.
 */
function observeViewport(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void): (() => void) | undefined {
  const element = instance.scrollElement;
  if (!element) return undefined;
  const observer = new ResizeObserver(() => cb({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element);
  return () => observer.disconnect();
}

export interface EndReached {
  scrolled: boolean;
}

export function VirtualList<T>({ items, rowHeight, measureRows = false, getKey, renderRow, onActivate, label, overscan = 6, className, onEndReached, returnTo = null, busy = false }: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(-1);
  // The virtualiser recomputes its measurements when getItemKey changes: only when the items do.
  const keyOf = useRef(getKey);
  keyOf.current = getKey;
  const getItemKey = useCallback((index: number) => keyOf.current(items[index]!), [items]);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => viewport.current,
    estimateSize: () => rowHeight,
    getItemKey,
    overscan,
    // React 19 warns about flushSync inside its own updates; a frame later is fine for fixed rows.
    useFlushSync: false,
    observeElementRect: observeViewport,
    initialRect: { width: 0, height: window.innerHeight },
  });

  useEffect(() => {
    if (active >= items.length) setActive(items.length - 1);
  }, [items.length, active]);

  const virtualRows = virtualizer.getVirtualItems();
  const lastInView = virtualRows[virtualRows.length - 1]?.index ?? -1;
  // The callback is held in a ref: a new one each render (a loadMore whose identity follows the
  // fetching state) must not call it again while nothing in view changed.
  const endReached = useRef(onEndReached);
  const scrolled = useRef(false);
  useEffect(() => {
    endReached.current = onEndReached;
  });
  useEffect(() => {
    if (items.length === 0 || lastInView < items.length - 1 - Math.max(overscan, 20)) return;
    const reason = { scrolled: scrolled.current };
    scrolled.current = false;
    endReached.current?.(reason);
  }, [lastInView, items.length, overscan]);

  // Back from an item opened here: the focus on the list, that row active (the Timeline's bars do the same).
  const pendingReturn = useRef(returnTo);
  useLayoutEffect(() => {
    const key = pendingReturn.current;
    if (key === null || !viewport.current) return;
    if (document.activeElement && document.activeElement !== document.body) {
      pendingReturn.current = null;
      return;
    }
    const index = items.findIndex((item) => keyOf.current(item) === key);
    if (index < 0) return;
    pendingReturn.current = null;
    // Focused first: its onFocus makes the first row in view active, and this row's index comes after.
    viewport.current.focus({ preventScroll: true });
    setActive(index);
    virtualizer.scrollToIndex(index, { align: 'auto' });
  });

  const viewportHeight = () => virtualizer.scrollRect?.height ?? viewport.current?.clientHeight ?? 0;

  const moveTo = (index: number) => {
    if (items.length === 0) return;
    const clamped = Math.max(0, Math.min(items.length - 1, index));
    setActive(clamped);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || items.length === 0) return;
    const page = Math.max(1, Math.floor(viewportHeight() / rowHeight) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(active + 1),
      ArrowUp: () => moveTo(active - 1),
      PageDown: () => moveTo(active + page),
      PageUp: () => moveTo(active - page),
      Home: () => moveTo(0),
      End: () => moveTo(items.length - 1),
      Enter: () => {
        const item = items[active];
        if (item !== undefined) onActivate?.(item);
      },
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const onFocus = () => {
    if (active >= 0 || items.length === 0) return;
    // The first row in view becomes the active one.
    setActive(virtualizer.getVirtualItemForOffset(virtualizer.scrollOffset ?? 0)?.index ?? 0);
  };

  const activeItem = active >= 0 ? items[active] : undefined;
  return (
    <div
      ref={viewport}
      className={`virtual-list ${className ?? ''}`}
      role="list"
      aria-label={label}
      aria-busy={busy || undefined}
      aria-activedescendant={activeItem !== undefined ? `vl-${getKey(activeItem)}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onScroll={() => {
        scrolled.current = true;
      }}
    >
      <div className="vl-spacer" style={{ height: virtualizer.getTotalSize() }}>
        {virtualRows.map((row) => {
          const item = items[row.index];
          if (item === undefined) return null;
          const key = getKey(item);
          return (
            <div
              key={key}
              id={`vl-${key}`}
              role="listitem"
              className={`vl-row${row.index === active ? ' active' : ''}`}
              data-index={row.index}
              ref={measureRows ? virtualizer.measureElement : undefined}
              style={measureRows ? { top: row.start, minHeight: rowHeight } : { top: row.start, height: row.size }}
              onClick={() => setActive(row.index)}
            >
              {renderRow(item, { index: row.index, active: row.index === active })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
