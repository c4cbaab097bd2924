/**
 * Memories learned (and changed) per day or week, as SVG bars. Each bar is a button: it takes the timeline to that
 * day. Bars are focusable with arrow keys between them (one tab stop for the chart).
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { layoutBars } from './activity-chart';
import { useTimelineStore, type ActivityBucket } from './timeline.store';
import { dateFormat } from '../format/format';
import { useLanguage, useT } from '../i18n/use-t';

const WIDTH = 840;
const HEIGHT = 72;

export function ActivityChart({ onPick }: { onPick(bucket: ActivityBucket, end: number): void }) {
  const t = useT();
  const language = useLanguage();
  const headingId = useId();
  const buckets = useTimelineStore((s) => s.activity);
  const bucket = useTimelineStore((s) => s.bucket);
  const setBucket = useTimelineStore((s) => s.setBucket);
  const [focus, setFocus] = useState<number | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const bars = layoutBars(buckets, WIDTH, HEIGHT);
  // Buckets start at the user's midnights (activityEdges); dateFormat reads them in the same zone.
  const dateOf = (at: number) => dateFormat(language, { dateStyle: 'medium' }).format(at);
  const learned = buckets.reduce((n, b) => n + b.learned, 0);
  const current = focus ?? bars.length - 1;

  const onKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : e.key === 'Home' ? -bars.length : e.key === 'End' ? bars.length : 0;
    if (step === 0) return;
    e.preventDefault();
    const next = Math.max(0, Math.min(bars.length - 1, current + step));
    setFocus(next);
    svg.current?.querySelector<SVGGElement>(`[data-bar="${next}"]`)?.focus();
  };

  return (
    <section className="activity" aria-labelledby={headingId}>
      <div className="activity-head">
        <h3 id={headingId}>{t('timeline.activity')}</h3>
        <span className="muted small grow">{t(bucket === 'day' ? 'timeline.activitySumDays' : 'timeline.activitySumWeeks', { count: learned })}</span>
        <span className="legend small">
          <span className="swatch learned" aria-hidden="true" /> {t('timeline.legend.learned')}
          <span className="swatch changed" aria-hidden="true" /> {t('timeline.legend.changed')}
        </span>
        <div className="segmented" role="group" aria-label={t('timeline.bucket')}>
          {(['day', 'week'] as const).map((b) => (
            <button key={b} type="button" className={bucket === b ? 'small active' : 'small'} aria-pressed={bucket === b} onClick={() => setBucket(b)}>
              {t(`timeline.bucket.${b}`)}
            </button>
          ))}
        </div>
      </div>
      <svg ref={svg} className="activity-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT + 2}`} preserveAspectRatio="none" role="group" aria-label={t('timeline.chartLabel')} onKeyDown={onKey}>
        <line x1={0} x2={WIDTH} y1={HEIGHT + 1} y2={HEIGHT + 1} className="baseline" />
        {bars.map((bar, i) => {
          const b = buckets[i]!;
          const label = t('timeline.barLabel', { date: dateOf(bar.start), learned: b.learned, changed: b.changed });
          return (
            <g
              key={bar.start}
              data-bar={i}
              role="button"
              tabIndex={i === current ? 0 : -1}
              aria-label={label}
              className="bar"
              onClick={() => onPick(b, b.end)}
              onFocus={() => setFocus(i)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onPick(b, b.end);
                }
              }}
            >
              <title>{label}</title>
              <rect className="hit" x={bar.x - 1} y={0} width={bar.width + 2} height={HEIGHT + 2} />
              {bar.total === 0 ? (
                <rect className="stub" x={bar.x} y={HEIGHT - 1} width={bar.width} height={1} />
              ) : (
                <>
                  <rect className="changed" x={bar.x} y={HEIGHT - bar.changedHeight} width={bar.width} height={bar.changedHeight} />
                  <rect className="learned" x={bar.x} y={HEIGHT - bar.changedHeight - bar.learnedHeight} width={bar.width} height={bar.learnedHeight} />
                </>
              )}
            </g>
          );
        })}
      </svg>
      {bars.length > 0 && (
        <div className="activity-axis muted small" aria-hidden="true">
          <span>{dateOf(bars[0]!.start)}</span>
          <span>{dateOf(bars[bars.length - 1]!.start)}</span>
        </div>
      )}
    </section>
  );
}
