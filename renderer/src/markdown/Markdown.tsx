/**
 * Model output as markdown (GFM, highlighted code), rendered as data: raw HTML stays text (no rehype-raw, ever),
 * images are never fetched (an inert placeholder shows their URL and opens it only on click), and links open only
 * when clicked, in a new window without opener or referrer (Electron hands them to the system browser).
 */
import { memo, useState, type ReactNode } from 'react';
import ReactMarkdown, { type Components, type UrlTransform } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { ImageIcon } from '../ui/icons';
import { useT } from '../i18n/use-t';
import { copyText } from './copy-text';
import { codeLanguage, hastText, type HastLike } from './hast-text';
import { displayUrl, safeLinkUrl } from './safe-url';

const remarkPlugins = [remarkGfm];
const rehypePlugins = [rehypeHighlight];

const urlTransform: UrlTransform = (url, _key, node) => (node.tagName === 'img' ? url : (safeLinkUrl(url) ?? ''));

function ExternalLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const safe = href ? safeLinkUrl(href) : null;
  if (!safe) return <span className="link-refused">{children}</span>;
  return (
    <a href={safe} target="_blank" rel="noopener noreferrer" title={safe}>
      {children}
    </a>
  );
}

function ImagePlaceholder({ src, alt }: { src: string | undefined; alt: string | undefined }) {
  const t = useT();
  const url = src ?? '';
  const safe = safeLinkUrl(url);
  return (
    <span className="image-placeholder" role="img" aria-label={t('md.imageNotLoaded', { alt: alt || url })}>
      <span className="image-placeholder-icon">
        <ImageIcon />
      </span>
      <span className="image-placeholder-text">
        {t('md.imageBlocked')}
        {alt ? <em> “{alt}”</em> : null}
      </span>
      {safe ? (
        <a href={safe} target="_blank" rel="noopener noreferrer" className="image-placeholder-url">
          {displayUrl(url)}
        </a>
      ) : (
        <code className="image-placeholder-url">{displayUrl(url)}</code>
      )}
    </span>
  );
}

function CodeBlock({ node, children }: { node: HastLike | undefined; children: ReactNode }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const language = codeLanguage(node);
  const copy = async () => {
    if (await copyText(hastText(node).replace(/\n$/, ''))) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  };
  return (
    <div className="code-block">
      <div className="code-block-head">
        <span className="code-block-lang">{language ?? t('md.code')}</span>
        <button type="button" className="ghost small" onClick={() => void copy()} aria-label={t('md.copyCode')}>
          {copied ? t('common.copied') : t('common.copy')}
        </button>
      </div>
      <pre>{children}</pre>
    </div>
  );
}

const components: Components = {
  a: ({ href, children }) => <ExternalLink href={href}>{children}</ExternalLink>,
  img: ({ src, alt }) => <ImagePlaceholder src={typeof src === 'string' ? src : undefined} alt={alt} />,
  pre: ({ node, children }) => <CodeBlock node={node as HastLike | undefined}>{children}</CodeBlock>,
  table: ({ children }) => (
    <div className="table-scroll">
      <table>{children}</table>
    </div>
  ),
};

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} urlTransform={urlTransform}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
