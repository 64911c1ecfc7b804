import { Pagination } from '@mantine/core';

/** Pages of a list, with named previous/next buttons. Renders nothing for a single page. */
export function Pager({
  total,
  pageSize,
  page,
  onChange,
}: {
  total: number;
  pageSize: number;
  page: number;
  onChange: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <Pagination
      mt="sm"
      total={pages}
      value={page}
      onChange={onChange}
      aria-label="Pages"
      getControlProps={(control) => ({
        'aria-label': `${control === 'previous' ? 'Previous' : control === 'next' ? 'Next' : control === 'first' ? 'First' : 'Last'} page`,
      })}
      getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
    />
  );
}
