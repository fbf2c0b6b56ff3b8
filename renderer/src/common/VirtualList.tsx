/**
 * A virtualised list of fixed-height rows: only the rows in view (plus a few) are in the DOM, so
 * tens of thousands of items stay fast. Keyboard: the list is one tab stop; ↑/↓, PageUp/PageDown,
 * Home/End move the active row, Enter opens it.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useElementSize } from './use-element-size';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  getKey(item: T): string;
  renderRow(item: T, state: { index: number; active: boolean }): ReactNode;
  onActivate?(item: T): void;
  label: string;
  overscan?: number;
  className?: string;
}

export function VirtualList<T>({ items, rowHeight, getKey, renderRow, onActivate, label, overscan = 6, className }: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const { height } = useElementSize(viewport);
  const [scrollTop, setScrollTop] = useState(0);
  const [active, setActive] = useState(-1);

  useEffect(() => {
    if (active >= items.length) setActive(items.length - 1);
  }, [items.length, active]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + Math.max(height, rowHeight)) / rowHeight) + overscan);

  const moveTo = (index: number) => {
    const clamped = Math.max(0, Math.min(items.length - 1, index));
    setActive(clamped);
    const el = viewport.current;
    if (!el) return;
    const top = clamped * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || items.length === 0) return;
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
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

  const activeItem = active >= 0 ? items[active] : undefined;
  const rows: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    const item = items[index];
    if (item === undefined) continue;
    rows.push(
      <div
        key={getKey(item)}
        id={`vl-${getKey(item)}`}
        role="listitem"
        className={`vl-row${index === active ? ' active' : ''}`}
        style={{ top: index * rowHeight, height: rowHeight }}
        onClick={() => setActive(index)}
      >
        {renderRow(item, { index, active: index === active })}
      </div>,
    );
  }

  return (
    <div
      ref={viewport}
      className={`virtual-list ${className ?? ''}`}
      role="list"
      aria-label={label}
      aria-activedescendant={activeItem !== undefined ? `vl-${getKey(activeItem)}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (active < 0 && items.length > 0) setActive(Math.floor(scrollTop / rowHeight));
      }}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <div className="vl-spacer" style={{ height: items.length * rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
