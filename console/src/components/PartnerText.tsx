/**
 * Text a partner or its client typed (a name, a note), set apart from the text around it as `<bdi>` does: inside,
 * a U+202E or a right-to-left name keeps its direction, but it cannot reverse or reorder what follows it on the
 * line (the phone after a name, the quote closing a note) and so make staff misread the page.
 */
export function PartnerText({ children }: { children: string | null | undefined }) {
  return <bdi>{children}</bdi>;
}
