/**
 * What stands between the user and a reply, and the way out: confirm a server on another machine, start Ollama (or change its host), pick an installed
 * model, or download the configured one with a progress bar. Shown full-size on first start and as a banner in a thread.
 * Downloading is Ollama's alone: with an OpenAI-compatible server the way out is to start it, or to load the model in
 * it, in the server's own words (the core's message names the address and how to start it).
 */
import { useId, useState } from 'react';
import { formatBytes } from '../format/format';
import { useAppStore } from '../app/app.store';
import { useSettingsStore } from '../settings/settings.store';
import type { ModelProblem } from './model-problem';
import { useStatusStore } from './status.store';
import { useLanguage, useT } from '../i18n/use-t';
import { pullStepKey } from './pull-status';
import { CoreError } from '../ui/CoreError';
import { DownloadIcon, WarningIcon } from '../ui/icons';
import { RemoteServerConsent } from './RemoteServerConsent';

export function ModelSetup({ problem, compact = false }: { problem: ModelProblem; compact?: boolean }) {
  const t = useT();
  const headingId = useId();
  const refreshModels = useStatusStore((s) => s.refreshModels);
  const checking = useStatusStore((s) => s.checkingModels);
  const setView = useAppStore((s) => s.setView);
  const server = useStatusStore((s) => s.models?.api === 'openai');
  const className = `setup-card ${compact ? 'compact' : ''} ${problem.kind === 'unreachable' || problem.kind === 'unconfirmed' ? 'warn' : ''}`;

  const checkAgain = (
    <button type="button" className="primary" onClick={() => void refreshModels()} disabled={checking}>
      {checking ? t('setup.checking') : t('setup.checkAgain')}
    </button>
  );

  if (problem.kind === 'unconfirmed') {
    return (
      <section className={className} aria-labelledby={headingId}>
        <h2 id={headingId}>
          <WarningIcon /> {t('consent.title')}
        </h2>
        <RemoteServerConsent api={problem.api} address={problem.address} fromEnvironment={problem.fromEnvironment} />
        <div className="button-row">
          <button type="button" onClick={() => setView('settings')}>
            {t('setup.openSettings')}
          </button>
        </div>
      </section>
    );
  }

  if (problem.kind === 'unreachable') {
    return (
      <section className={className} aria-labelledby={headingId}>
        <h2 id={headingId}>
          <WarningIcon /> {t(server ? 'setup.server.unreachable.title' : 'setup.unreachable.title')}
        </h2>
        {server ? (
          <>
            <p>{t('setup.server.unreachable.body', { host: problem.host })}</p>
            {/* The core's words name the address tried and how to start that server: English, folded. */}
            {problem.message && (
              <details className="notice-details small">
                <summary>{t('error.details')}</summary>
                <span lang="en">{problem.message}</span>
              </details>
            )}
          </>
        ) : (
          <>
            <p>{t('setup.unreachable.body', { host: problem.host })}</p>
            <p>
              {t('setup.unreachable.howStart')} <code>ollama serve</code>
              {t('setup.unreachable.howHost')}
            </p>
          </>
        )}
        <div className="button-row">
          {checkAgain}
          <button type="button" onClick={() => setView('settings')}>
            {t('setup.openSettings')}
          </button>
        </div>
      </section>
    );
  }

  if (problem.kind === 'no-models' && server) {
    return (
      <section className={className} aria-labelledby={headingId}>
        <h2 id={headingId}>{t('setup.server.noModels.title')}</h2>
        <p>{t('setup.server.noModels.body', { model: problem.configured })}</p>
        <div className="button-row">{checkAgain}</div>
      </section>
    );
  }

  if (problem.kind === 'no-models') {
    return (
      <section className={className} aria-labelledby={headingId}>
        <h2 id={headingId}>{compact ? t('setup.noModels.titleShort') : t('setup.noModels.title')}</h2>
        <p>{t('setup.noModels.body', { model: problem.configured })}</p>
        <PullControl name={problem.configured} />
        {!compact && <OtherModelPull />}
      </section>
    );
  }

  return (
    <section className={className} aria-labelledby={headingId}>
      <h2 id={headingId}>{t(server ? 'setup.server.missing.title' : 'setup.missing.title', { model: problem.configured })}</h2>
      <p>{t('setup.missing.pick')}</p>
      <InstalledPicker installed={problem.installed} label={t(server ? 'setup.server.missing.available' : 'setup.missing.installed')} />
      {server ? (
        <div className="button-row">
          <span>{t('setup.server.missing.load', { model: problem.configured })}</span>
          {checkAgain}
        </div>
      ) : (
        <>
          <p>{t('setup.missing.orPull', { model: problem.configured })}</p>
          <PullControl name={problem.configured} />
        </>
      )}
    </section>
  );
}

/**
 * The chat model the user chooses here also becomes the background model when that one is not installed either:
 * otherwise the first answer would work and every title, summary and memory after it would fail.
 */
function useChooseChatModel(): (name: string) => Promise<boolean> {
  const update = useSettingsStore((s) => s.update);
  const showError = useAppStore((s) => s.showError);
  return async (name) => {
    const backgroundMissing = useStatusStore.getState().models?.backgroundModel.installed === false;
    const result = await update({ chatModel: name, ...(backgroundMissing ? { backgroundModel: name } : {}) });
    if (!result.ok) showError(result.error);
    return result.ok;
  };
}

/** Only models that can chat are listed (the status store leaves embedding-only models out). */
function InstalledPicker({ installed, label }: { installed: string[]; label: string }) {
  const t = useT();
  const choose = useChooseChatModel();
  return (
    <ul className="model-choices" aria-label={label}>
      {installed.map((name) => (
        <li key={name}>
          <button type="button" onClick={() => void choose(name)} aria-label={t('setup.missing.use', { model: name })}>
            {name}
          </button>
        </li>
      ))}
    </ul>
  );
}

export function PullControl({ name }: { name: string }) {
  const t = useT();
  const language = useLanguage();
  const pull = useStatusStore((s) => s.pull);
  const cancelPull = useStatusStore((s) => s.cancelPull);
  const state = useStatusStore((s) => s.pulls[name]);
  const running = state !== undefined && !state.done;

  if (!running && !state?.error) {
    return (
      <div className="button-row">
        <button type="button" className="primary" onClick={() => void pull(name)}>
          <DownloadIcon /> {t('setup.pull', { model: name })}
        </button>
      </div>
    );
  }
  const percent = state?.percent ?? null;
  const bytes =
    state?.completedBytes != null && state.totalBytes
      ? t('setup.pullBytes', { done: formatBytes(state.completedBytes, language), total: formatBytes(state.totalBytes, language) })
      : null;
  return (
    <div className="pull">
      <div className="pull-line">
        <span>{state?.error ? t('setup.pullFailed', { model: name }) : t('setup.pulling', { model: name })}</span>
        <span className="muted">{percent !== null ? `${Math.floor(percent)}%` : ''}</span>
      </div>
      <div
        className={state?.error ? 'progress failed' : 'progress'}
        role="progressbar"
        aria-label={t('setup.pullProgress', { model: name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent !== null ? Math.floor(percent) : undefined}
        aria-valuetext={percent !== null ? `${Math.floor(percent)}%` : t('setup.pullStarting')}
      >
        <div className="progress-fill" style={{ width: `${percent ?? 0}%` }} />
      </div>
      <div className="pull-detail muted small">
        {state?.error ? (
          <span role="alert">
            <CoreError error={state.error} />
          </span>
        ) : (
          <>
            <span>{t(pullStepKey(state?.status ?? 'starting'))}</span>
            {bytes && <span> · {bytes}</span>}
          </>
        )}
      </div>
      {state?.error && (
        <div className="button-row">
          <button type="button" className="primary" onClick={() => void pull(name)}>
            {t('common.tryAgain')}
          </button>
        </div>
      )}
      {running && (
        <div className="button-row">
          <button type="button" onClick={() => void cancelPull(name)} aria-label={t('setup.pullCancelLabel', { model: name })}>
            {t('setup.pullCancel')}
          </button>
        </div>
      )}
    </div>
  );
}

function OtherModelPull() {
  const t = useT();
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const pull = useStatusStore((s) => s.pull);
  const choose = useChooseChatModel();
  const inputId = useId();
  const start = async () => {
    const model = name.trim();
    if (!model) return;
    setChosen(model);
    if (await choose(model)) await pull(model);
  };
  return (
    <details className="other-model">
      <summary>{t('setup.other.summary')}</summary>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <label htmlFor={inputId}>{t('setup.other.label')}</label>
        <input id={inputId} value={name} onChange={(e) => setName(e.target.value)} placeholder="qwen3:4b" spellCheck={false} />
        <button type="submit" disabled={!name.trim()}>
          {t('setup.other.pull')}
        </button>
      </form>
      {chosen && <p className="muted small">{t('setup.other.hint', { model: chosen })}</p>}
    </details>
  );
}
