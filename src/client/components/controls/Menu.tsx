import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';

interface MenuProps {
  /** What the button shows; its text is the button's accessible name. */
  button: ReactNode;
  buttonClassName: string;
  menuClassName: string;
  /** The entries: elements with role="menuitem" and tabIndex={-1} (see `menuItemProps`). */
  children: ReactNode;
}

/** The panel of a menu opened under its button, aligned to the button's right edge. */
export const menuPanelClasses =
  'absolute top-full right-0 z-30 mt-2 w-48 rounded-xl bg-white py-1 shadow-lg ring-1 ring-gray-900/5 focus:outline-none';

/** The chevron a menu button shows after its text. */
export function MenuChevron({ className = 'size-4 shrink-0' }: { className?: string }) {
  return (
    <svg viewBox="0 0 20 20" fill="currentColor" className={className} aria-hidden="true">
      <path
        fillRule="evenodd"
        d="M5.22 8.22a.75.75 0 0 1 1.06 0L10 11.94l3.72-3.72a.75.75 0 1 1 1.06 1.06l-4.25 4.25a.75.75 0 0 1-1.06 0L5.22 9.28a.75.75 0 0 1 0-1.06Z"
        clipRule="evenodd"
      />
    </svg>
  );
}

/** What every entry of a Menu carries: the role, and focus by the menu's arrow keys only. */
export const menuItemProps = { role: 'menuitem', tabIndex: -1 } as const;

/**
 * A menu button (the WAI-ARIA menu button pattern): Enter, Space, Arrow Down or a click opens it
 * on its first entry (Arrow Up on its last); arrows, Home and End move between entries; Escape
 * closes it back on the button; choosing an entry, Tab, or a click elsewhere closes it.
 */
export function Menu({ button, buttonClassName, menuClassName, children }: MenuProps) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const container = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const buttonId = useId();

  const items = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  // Focus moves into the menu as it appears (a layout effect: before the browser paints it).
  useLayoutEffect(() => {
    if (!open) return;
    const entries = items();
    (open === 'first' ? entries[0] : entries.at(-1))?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    // A press anywhere outside closes the menu.
    const closeOutside = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const entries = items();
    const current = entries.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: (current + 1) % entries.length,
      ArrowUp: (current - 1 + entries.length) % entries.length,
      Home: 0,
      End: entries.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      entries[moves[event.key]!]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    } else if (event.key === ' ' && document.activeElement instanceof HTMLAnchorElement) {
      // Space chooses a link entry too, as it does a button.
      event.preventDefault();
      document.activeElement.click();
    }
  };

  // Choosing an entry closes the menu; the entry's own handler does the rest.
  const onMenuClick = (event: MouseEvent) => {
    if ((event.target as Element).closest('[role="menuitem"]')) close(false);
  };

  return (
    // min-w-0: inside a flex row (the header) the menu may shrink, so its button can truncate.
    <div ref={container} className="relative min-w-0">
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? menuId : undefined}
        className={buttonClassName}
        onClick={() => setOpen((wasOpen) => (wasOpen ? false : 'first'))}
        onKeyDown={onButtonKeyDown}
      >
        {button}
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-labelledby={buttonId}
          className={menuClassName}
          onKeyDown={onMenuKeyDown}
          onClick={onMenuClick}
        >
          {children}
        </div>
      )}
    </div>
  );
}
