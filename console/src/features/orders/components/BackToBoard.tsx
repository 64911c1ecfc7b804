import { Anchor } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { boardBehind } from '../hooks/back-to-board';

/**
 * Back to the board as the user left it: one step back in history when the board opened this order (its search and
 * filters come back with it), else the board itself.
 */
export function BackToBoard() {
  const key = useLocation().key;
  const navigate = useNavigate();
  const board = boardBehind(key);
  return (
    <Anchor
      component={Link}
      to={board ?? '/orders'}
      size="sm"
      data-back={board ? 'history' : 'board'}
      onClick={(e: React.MouseEvent<HTMLAnchorElement>) => {
        // A click that opens a new tab or window keeps its default.
        if (!board || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        void navigate(-1);
      }}
    >
      Back to the board
    </Anchor>
  );
}
