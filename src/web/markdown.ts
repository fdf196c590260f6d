import DOMPurify from 'dompurify';
import { marked } from 'marked';

// Links open in a new tab without handing over this page; DOMPurify has already dropped
// javascript: and other script-running URLs by the time this hook runs.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

/**
 * Untrusted Markdown (an answer) to HTML that runs nothing: marked, then DOMPurify with
 * no images, forms, frames, SVG, MathML or styles (images would also break the page's CSP).
 */
export function renderMarkdown(text: string): string {
  const raw = marked.parse(text, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(raw, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      'img',
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'iframe',
      'video',
      'audio',
    ],
    FORBID_ATTR: ['style', 'class', 'id'],
    ALLOW_DATA_ATTR: false,
  });
}
