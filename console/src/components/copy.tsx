import { Alert, Button, type ButtonProps } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * copied: the clipboard took it. insecure: the page is on plain http away from localhost, where the browser offers no
 * clipboard. refused: the browser has one but said no (a permission, a lost focus).
 */
export type CopyState = 'idle' | 'copied' | 'insecure' | 'refused';

export interface Copier {
  /** Put on the element that shows the value: it is selected when the clipboard cannot be used. */
  field: React.RefObject<HTMLElement | null>;
  state: CopyState;
  copy: () => Promise<void>;
}

const COPIED_FOR_MS = 2000;

/**
 * Copies a value shown once (a raw key, a signing secret) and says honestly how that went: "Copied" only when the
 * clipboard took it; otherwise the value is selected in its field, so Ctrl+C copies it, and CopyHelp says so.
 */
export function useCopy(value: string): Copier {
  const field = useRef<HTMLElement | null>(null);
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const select = useCallback(() => {
    const el = field.current;
    const selection = window.getSelection();
    if (!el || !selection) return;
    selection.selectAllChildren(el);
    el.scrollIntoView?.({ block: 'nearest' });
  }, []);
  const copy = useCallback(async () => {
    clearTimeout(timer.current);
    // navigator.clipboard is absent outside a secure context (http:// on an address other than localhost).
    if (!window.isSecureContext || typeof navigator.clipboard?.writeText !== 'function') {
      select();
      setState('insecure');
      return;
    }
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
      timer.current = setTimeout(() => setState('idle'), COPIED_FOR_MS);
    } catch {
      select();
      setState('refused');
    }
  }, [value, select]);
  return { field, state, copy };
}

/** The copy button: "Copied" only when it was. */
export function CopyValueButton({ copier, label, ...props }: { copier: Copier; label: string } & ButtonProps) {
  const copied = copier.state === 'copied';
  return (
    <Button
      leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
      color={copied ? 'teal' : undefined}
      {...props}
      onClick={() => void copier.copy()}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}

/** When the clipboard could not be used: what to do instead (the value is already selected). */
export function CopyHelp({ copier }: { copier: Copier }) {
  if (copier.state !== 'insecure' && copier.state !== 'refused') return null;
  return (
    <Alert color="orange" variant="light" role="alert" data-copy={copier.state}>
      {copier.state === 'insecure'
        ? "Select and copy it yourself: this address is not secure enough for the browser's clipboard."
        : 'Select and copy it yourself: the browser did not let the page use the clipboard.'}{' '}
      It is selected above: press Ctrl+C (⌘C on a Mac) before you go on.
    </Alert>
  );
}
