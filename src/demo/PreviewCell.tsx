import { useEffect, useRef } from 'preact/hooks';
import { renderPreview, type PreviewOptions } from '../widget/preview.ts';

/** One rendered widget state, on the surface of its own theme, with its caption. */
export function PreviewCell({
  options,
  caption,
  mobile,
}: {
  options: PreviewOptions;
  caption: string;
  mobile: boolean;
}) {
  const slot = useRef<HTMLDivElement>(null);
  const key = JSON.stringify(options);
  useEffect(() => renderPreview(slot.current!, options), [key]);
  return (
    <figure class={`cell cell-${options.theme}${mobile ? ' cell-mobile' : ''}`}>
      <figcaption>{caption}</figcaption>
      <div class="cell-slot" ref={slot} lang={options.locale} />
    </figure>
  );
}
