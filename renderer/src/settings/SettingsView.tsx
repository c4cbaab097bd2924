/**
 * Every setting. Appearance (language, theme) applies at once; the rest is a form saved as one settings.update. The
 * form's draft, its save and the core's refusal live in the one form model (settings.store.ts); each field is checked
 * by the contract's schema (settings-form.ts), so mistakes are explained next to the field before anything is sent.
 */
import { EpisodesSwitch, InstantSwitch } from './InstantSwitch';
import { LearningSection } from './LearningSection';
import { AppliesAtOnce } from './AppliesAtOnce';
import { ConnectedAppsSection } from '../connected-apps/public';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { Settings } from '../../../shared/contract';
import { copyText } from '../markdown/copy-text';
import {
  BUDGET_PATHS,
  changesServer,
  confirmationPath,
  confirmationValue,
  currentValue,
  fieldOf,
  isDirty,
  providerOf,
  remoteServer,
  validateDraft,
  type Draft,
  type FieldError,
  type FieldPath,
  type NumberPath,
  type TextPath,
} from './settings-form';
import { useAppStore } from '../app/app.store';
import { browserTimeZone, useSettingsStore } from './settings.store';
import { useStatusStore } from '../status/status.store';
import { MemoryAccessNow } from './MemoryAccessNow';
import { formatNumber } from '../format/format';
import type { MessageKey } from '../i18n/i18n';
import { useLanguage, useT } from '../i18n/use-t';
import { BackIcon, CopyIcon } from '../ui/icons';
import { sameModel } from '../../../shared/model-name';
import { CoreError } from '../ui/CoreError';
import { ApiKeyField } from './ApiKeyField';
import { EmbeddingOffReason, RemoteServerConsent } from '../status/public';
import { BackupsSection } from '../backups/public';
import { ConfirmDialog } from '../ui/Dialog';
import { TransferPanel } from '../transfer/public';
import { InstructionsSection } from './InstructionsSection';
import { Section } from '../ui/SettingsSection';
import { schemaLabel } from '../status/schema-label';

export function SettingsView() {
  const t = useT();
  const settings = useSettingsStore((s) => s.settings);
  const headingId = useId();
  const setView = useAppStore((s) => s.setView);
  const pendingView = useAppStore((s) => s.pendingView);
  const leaveSettings = useAppStore((s) => s.leaveSettings);
  return (
    <section className="settings" aria-labelledby={headingId}>
      {pendingView && (
        <ConfirmDialog
          title={t('settings.leaveTitle')}
          body={t('settings.leaveBody')}
          confirm={t('settings.leaveDiscard')}
          cancel={t('settings.leaveStay')}
          onConfirm={() => leaveSettings(true)}
          onClose={() => leaveSettings(false)}
        />
      )}
      <header className="settings-head">
        <button type="button" className="ghost" onClick={() => setView('chat')}>
          <BackIcon /> {t('settings.back')}
        </button>
        <h2 id={headingId}>{t('settings.title')}</h2>
      </header>
      <div className="settings-scroll">
        {settings ? (
          <div className="settings-body">
            <AppearanceSection settings={settings} />
            <InstructionsSection settings={settings} />
            <SettingsForm settings={settings} />
            <ConnectedAppsSection />
            <DataSection />
            <BackupsSection />
            <Section title={t('transfer.title')} description={t('transfer.settingsHint')}>
              <TransferPanel />
            </Section>
          </div>
        ) : (
          <p className="muted">{t('common.loading')}</p>
        )}
      </div>
    </section>
  );
}

function AppearanceSection({ settings }: { settings: Settings }) {
  const t = useT();
  const update = useSettingsStore((s) => s.update);
  const showError = useAppStore((s) => s.showError);
  const languageId = useId();
  const apply = async (patch: Partial<Settings>) => {
    const result = await update(patch);
    if (!result.ok) showError(result.error);
  };
  return (
    <Section title={t('settings.appearance')} description={<AppliesAtOnce />}>
      <div className="field">
        <label htmlFor={languageId}>{t('settings.language')}</label>
        <select id={languageId} value={settings.language} onChange={(e) => void apply({ language: e.target.value as Settings['language'] })}>
          <option value="en">English</option>
          <option value="zh-CN">简体中文</option>
        </select>
      </div>
      <fieldset className="field radio-group">
        <legend>{t('settings.theme')}</legend>
        {(['light', 'dark', 'system'] as const).map((theme) => (
          <label key={theme} className="radio">
            <input type="radio" name="theme" value={theme} checked={settings.theme === theme} onChange={() => void apply({ theme })} />
            {t(`settings.theme.${theme}`)}
          </label>
        ))}
      </fieldset>
    </Section>
  );
}

/** LM Studio's address, the usual first OpenAI-compatible server (the contract's default). */
const DEFAULT_BASE_URL = 'http://127.0.0.1:1234/v1';

function SettingsForm({ settings }: { settings: Settings & { openaiApiKeySet: boolean } }) {
  const t = useT();
  const language = useLanguage();
  const draft = useSettingsStore((s) => s.draft);
  const save = useSettingsStore((s) => s.save);
  const edit = useSettingsStore((s) => s.edit);
  const discard = useSettingsStore((s) => s.discard);
  const submit = useSettingsStore((s) => s.submit);
  const settleSaved = useSettingsStore((s) => s.settleSaved);
  const closeForm = useSettingsStore((s) => s.closeForm);
  const validation = useMemo(() => validateDraft(settings, draft), [settings, draft]);
  const dirty = isDirty(settings, draft);
  const budgetTotalId = useId();
  const memoryAccessNowId = useId();
  const setSettingsUnsaved = useAppStore((s) => s.setSettingsUnsaved);
  // An API key typed but not kept yet is unsaved too: leaving would lose it as silently as a draft.
  const [keyTyped, setKeyTyped] = useState(false);
  useEffect(() => {
    setSettingsUnsaved(dirty || keyTyped);
  }, [dirty, keyTyped, setSettingsUnsaved]);
  // The form leaves with the view: its draft goes with it, and nothing is unsaved once it is gone.
  useEffect(
    () => () => {
      closeForm();
      setSettingsUnsaved(false);
    },
    [closeForm, setSettingsUnsaved],
  );

  useEffect(() => {
    if (save.kind !== 'saved') return;
    const timer = setTimeout(settleSaved, 4000);
    return () => clearTimeout(timer);
  }, [save.kind, settleSaved]);

  const field = <P extends FieldPath>(path: P) => ({
    path,
    value: currentValue(settings, draft, path),
    error: validation.errors[path] ?? null,
    serverError: save.kind === 'error' && save.path?.endsWith(path) ? <CoreError error={save.error} /> : null,
    onChange: (value: string) => edit(path, value),
  });

  return (
    <form
      className="settings-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Section title={t('settings.modelServer')} description={t('settings.modelServerHint')}>
        <fieldset className="field radio-group stacked">
          <legend>{t('settings.provider')}</legend>
          {(['ollama', 'openai'] as const).map((provider) => (
            <label key={provider} className="radio">
              <input type="radio" name="llmProvider" value={provider} checked={providerOf(settings, draft) === provider} onChange={() => field('llmProvider').onChange(provider)} />
              <span>
                <strong>{t(`settings.provider.${provider}`)}</strong>
                <span className="muted small block">{t(`settings.provider.${provider}Hint`)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {providerOf(settings, draft) === 'ollama' ? (
          <OllamaHostField {...field('ollamaHost')} label={t('settings.ollamaHost')} />
        ) : (
          <TextField {...field('openaiBaseUrl')} label={t('settings.baseUrl')} hint={t('settings.baseUrlHint')} placeholder={DEFAULT_BASE_URL} />
        )}
        <RemoteConfirmation settings={settings} draft={draft} onChange={(confirm) => field(confirmationPath(settings, draft)).onChange(confirmationValue(settings, draft, confirm))} />
        {providerOf(settings, draft) === 'openai' && <ApiKeyField isSet={settings.openaiApiKeySet} onTyped={setKeyTyped} />}
        <ServerLine pending={changesServer(settings, draft)} />
        <ModelField {...field('chatModel')} label={t('settings.chatModel')} hint={t('settings.chatModelHint')} />
        <ModelField {...field('backgroundModel')} label={t('settings.backgroundModel')} hint={t('settings.backgroundModelHint')} />
        <NumberField {...field('modelLoadTimeoutSeconds')} label={t('settings.loadTimeout')} hint={t('settings.loadTimeoutHint')} />
        <NumberField {...field('contextWindowTokens')} label={t('settings.contextWindow')} hint={t('settings.contextWindowHint')} />
      </Section>

      <Section title={t('settings.memory')}>
        <ChoiceGroup {...field('memoryMode')} choices={['auto', 'ask', 'off'] as const} />
        <ChoiceGroup {...field('memoryAccess')} choices={['auto', 'inject', 'tools', 'both'] as const} />
        <MemoryAccessNow
          id={memoryAccessNowId}
          setting={field('memoryAccess').value as Settings['memoryAccess']}
          memoryMode={field('memoryMode').value as Settings['memoryMode']}
          model={field('chatModel').value}
        />
        <SelectField
          {...field('embeddingProvider')}
          label={t('settings.embeddingProvider')}
          hint={t('settings.embeddingProviderHint')}
          options={[
            { value: 'onnx', label: t('settings.embeddingProvider.onnx') },
            // "ollama": embeddings from the chat's model server, whichever it is.
            { value: 'ollama', label: t(providerOf(settings, draft) === 'openai' ? 'settings.embeddingProvider.server' : 'settings.embeddingProvider.ollama') },
          ]}
        />
        <TextField {...field('embeddingModel')} label={t('settings.embeddingModel')} hint={t('settings.embeddingModelHint')} />
        <EmbeddingLine />
        <InstantSwitch setting="workingMemoryEnabled" label={t('settings.workingMemory')} hint={t('settings.workingMemoryHint')} />
        <EpisodesSwitch />
        <NumberField {...field('episodeQuietMinutes')} label={t('episodes.quietMinutes')} hint={t('settings.episodeQuietMinutesHint')} />
        <NumberField {...field('nearDuplicateSimilarity')} label={t('settings.nearDuplicate')} hint={t('settings.nearDuplicateHint')} />
        <NumberField {...field('activeMemoryCap')} label={t('settings.memoryCap')} hint={t('settings.memoryCapHint')} />
        <NumberField {...field('trashRetentionDays')} label={t('settings.trashDays')} hint={t('settings.trashDaysHint')} />
        <InstantSwitch setting="consolidationEnabled" label={t('settings.consolidationEnabled')} hint={t('settings.consolidationEnabledHint')} />
        <NumberField {...field('consolidationMaxPerRun')} label={t('settings.consolidationMaxPerRun')} hint={t('settings.consolidationMaxPerRunHint')} />
      </Section>

      <LearningSection />

      <Section title={t('settings.time')}>
        <TimeZoneField {...field('timeZone')} label={t('settings.timeZone')} />
      </Section>

      <Section title={t('settings.retrieval')} description={t('settings.retrievalHint')}>
        <NumberField {...field('retrieval.similarityWeight')} label={t('settings.similarityWeight')} />
        <NumberField {...field('retrieval.importanceWeight')} label={t('settings.importanceWeight')} />
        <NumberField {...field('retrieval.recencyWeight')} label={t('settings.recencyWeight')} />
        <NumberField {...field('retrieval.recencyHalfLifeDays')} label={t('settings.halfLife')} hint={t('settings.halfLifeHint')} />
        <NumberField {...field('retrieval.minSimilarity')} label={t('settings.minSimilarity')} hint={t('settings.minSimilarityHint')} />
        <NumberField {...field('retrieval.limit')} label={t('settings.limit')} hint={t('settings.limitHint')} />
        <NumberField {...field('retrieval.timeBudgetMs')} label={t('settings.retrievalTimeBudget')} hint={t('settings.retrievalTimeBudgetHint')} />
      </Section>

      <Section title={t('settings.summaries')} description={t('settings.summariesHint')}>
        <NumberField {...field('summary.minNewMessages')} label={t('settings.minNewMessages')} />
        <NumberField {...field('summary.minNewTokens')} label={t('settings.minNewTokens')} />
      </Section>

      <Section title={t('settings.budget')} description={t('settings.budgetHint')}>
        {BUDGET_PATHS.map((path) => (
          // Over the total, every share is marked: lowering any of them fixes it; the total line says by how much.
          <NumberField key={path} {...field(path)} label={t(`settings.${path}`)} marked={validation.budgetError ? budgetTotalId : undefined} />
        ))}
        <p id={budgetTotalId} className={validation.budgetError ? 'budget-total field-error' : 'budget-total muted'} role={validation.budgetError ? 'alert' : undefined}>
          {validation.budgetError
            ? t(validation.budgetError.key, validation.budgetError.params)
            : validation.budgetTotal === null
              ? t('settings.budgetTotalUnknown')
              : t('settings.budgetTotal', { total: formatNumber(validation.budgetTotal, language, 2) })}
        </p>
      </Section>

      {(Object.keys(draft).length > 0 || save.kind !== 'idle') && (
        <div className="save-bar">
          <button type="submit" className="primary" disabled={!dirty || !validation.valid || save.kind === 'saving'}>
            {save.kind === 'saving' ? t('common.saving') : t('settings.save')}
          </button>
          <button type="button" disabled={Object.keys(draft).length === 0 || save.kind === 'saving'} onClick={discard}>
            {t('common.discard')}
          </button>
          <span className="save-status">
            {save.kind === 'saved' && <span className="saved">{t('common.saved')}</span>}
            {save.kind === 'error' && (
              <span className="field-error" role="alert">
                <CoreError error={save.error} />
              </span>
            )}
            {dirty && !validation.valid && <span className="field-error">{t('settings.fixErrors')}</span>}
            {dirty && validation.valid && save.kind === 'idle' && <span className="muted">{t('settings.unsaved')}</span>}
          </span>
        </div>
      )}
    </form>
  );
}

interface FieldProps {
  path: FieldPath;
  label: string;
  hint?: string;
  value: string;
  error: FieldError | null;
  /** The core's refusal of this field at the last save (null: none). */
  serverError: ReactNode;
  onChange(value: string): void;
}

/** A setting chosen among a few values, each with its name and a line saying what it does (settings.<path>.<value>[Hint]). */
function ChoiceGroup<P extends 'memoryMode' | 'memoryAccess'>({ path, value, onChange, choices }: Omit<FieldProps, 'label'> & { path: P; choices: ReadonlyArray<Settings[P]> }) {
  const t = useT();
  return (
    <fieldset className="field radio-group stacked">
      <legend>{t(`settings.${path}`)}</legend>
      {choices.map((choice) => (
        <label key={choice} className="radio">
          <input type="radio" name={path} value={choice} checked={value === choice} onChange={() => onChange(choice)} />
          <span>
            <strong>{t(`settings.${path}.${choice}` as MessageKey)}</strong>
            <span className="muted small block">{t(`settings.${path}.${choice}Hint` as MessageKey)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function FieldShell({ id, label, hint, error, serverError, children }: { id: string; label: string; hint?: string | undefined; error: FieldError | null; serverError: ReactNode; children: ReactNode }) {
  const t = useT();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {(error || serverError) && (
        <span id={`${id}-error`} className="field-error">
          {error ? t(error.key, error.params) : serverError}
        </span>
      )}
      {hint && (
        <span id={`${id}-hint`} className="field-hint">
          {hint}
        </span>
      )}
    </div>
  );
}

function describedBy(id: string, props: FieldProps): string | undefined {
  const ids = [props.error || props.serverError ? `${id}-error` : '', props.hint ? `${id}-hint` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function TextField(props: FieldProps & { placeholder?: string | undefined }) {
  const id = useId();
  return (
    <FieldShell id={id} label={props.label} hint={props.hint} error={props.error} serverError={props.serverError}>
      <input
        id={id}
        type="text"
        value={props.value}
        placeholder={props.placeholder}
        spellCheck={false}
        aria-invalid={props.error || props.serverError ? true : undefined}
        aria-describedby={describedBy(id, props)}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </FieldShell>
  );
}

/** An IANA zone name, typed or picked from the ones the platform knows; empty follows the machine's zone. */
function TimeZoneField(props: FieldProps) {
  const t = useT();
  const id = useId();
  const machine = browserTimeZone;
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);
  const hint = t('settings.timeZoneHint', { zone: machine });
  return (
    <FieldShell id={id} label={props.label} hint={hint} error={props.error} serverError={props.serverError}>
      <input
        id={id}
        type="text"
        list={`${id}-zones`}
        value={props.value}
        placeholder={machine}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={props.error || props.serverError ? true : undefined}
        aria-describedby={describedBy(id, { ...props, hint })}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <datalist id={`${id}-zones`}>
        {zones.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </FieldShell>
  );
}

/** `marked`: the id of a message elsewhere that makes this field invalid (the context shares' total). */
function NumberField(props: FieldProps & { path: NumberPath; marked?: string | undefined }) {
  const t = useT();
  const id = useId();
  const spec = fieldOf(props.path);
  const range = t('settings.range', { min: spec.min, max: spec.max });
  const hint = props.hint ? `${props.hint} (${range})` : range;
  return (
    <FieldShell id={id} label={props.label} hint={hint} error={props.error} serverError={props.serverError}>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={spec.min}
        max={spec.max}
        step={spec.step}
        value={props.value}
        aria-invalid={props.error || props.serverError || props.marked ? true : undefined}
        aria-describedby={[describedBy(id, { ...props, hint }), props.marked].filter(Boolean).join(' ') || undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </FieldShell>
  );
}

function SelectField(props: FieldProps & { options: Array<{ value: string; label: string }> }) {
  const id = useId();
  return (
    <FieldShell id={id} label={props.label} hint={props.hint} error={props.error} serverError={props.serverError}>
      <select id={id} value={props.value} aria-describedby={describedBy(id, props)} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

/** Installed models to choose from; the configured one stays listed (marked) when it is not installed. */
/** Offers the installed models that can chat (never an embedding-only one); the current value stays, marked, if it is not one. */
function ModelField(props: FieldProps & { path: TextPath }) {
  const t = useT();
  const models = useStatusStore((s) => s.models);
  const installed = models?.models ?? [];
  const chat = installed.filter((m) => m.chat).map((m) => m.name);
  if (chat.length === 0) return <TextField {...props} />;
  const listed = chat.some((name) => sameModel(name, props.value));
  const why = installed.some((m) => sameModel(m.name, props.value)) ? 'settings.notChatModel' : 'settings.notInstalled';
  const options = [...(listed || !props.value ? [] : [{ value: props.value, label: t(why, { model: props.value }) }]), ...chat.map((name) => ({ value: name, label: name }))];
  const value = listed ? (chat.find((name) => sameModel(name, props.value)) ?? props.value) : props.value;
  return <SelectField {...props} value={value} options={options} />;
}

/** The address field shows, as placeholder and in words, the address in use and where it comes from. */
function OllamaHostField(props: FieldProps) {
  const t = useT();
  const models = useStatusStore((s) => s.models);
  const inUse = models ? t(`settings.ollamaHostFrom.${models.hostSource}`, { url: models.host }) : null;
  return <TextField {...props} hint={inUse ? `${inUse} ${t('settings.ollamaHostHint')}` : t('settings.ollamaHostHint')} placeholder={models?.host ?? ''} />;
}

/**
 * A model server on another machine gets nothing until the user agrees, here, that conversations and memories go
 * there (the offline promise; the core refuses an unconfirmed one too). Shown only for such a server.
 */
function RemoteConfirmation({ settings, draft, onChange }: { settings: Settings; draft: Draft; onChange(confirm: boolean): void }) {
  const t = useT();
  const id = useId();
  const remote = remoteServer(settings, draft);
  if (!remote) return null;
  return (
    <div className="field remote-confirmation">
      <label className="radio" htmlFor={id}>
        <input id={id} type="checkbox" checked={remote.confirmed} aria-describedby={`${id}-hint`} onChange={(e) => onChange(e.target.checked)} />
        <span>{t('settings.remoteConfirm', { address: remote.address })}</span>
      </label>
      <span id={`${id}-hint`} className="field-hint">
        {t('settings.remoteConfirmHint')}
      </span>
    </div>
  );
}

/**
 * The saved server's state: the models listed in this section are its models. `pending`: the form changes which server
 * answers, and its models are listed once that is saved.
 */
function ServerLine({ pending }: { pending: boolean }) {
  const t = useT();
  const models = useStatusStore((s) => s.models);
  const checking = useStatusStore((s) => s.checkingModels);
  const refresh = useStatusStore((s) => s.refreshModels);
  if (!models) return null;
  const openai = models.api === 'openai';
  const text = models.reachable
    ? openai
      ? t('settings.serverReachable', { host: models.host, count: models.models.length })
      : t('settings.ollamaReachable', { host: models.host, version: models.version ?? '?', count: models.models.length })
    : openai
      ? t('settings.serverUnreachable', { host: models.host })
      : t('settings.ollamaUnreachable', { host: models.host });
  return (
    <div className="field-note" aria-live="polite">
      <span className={models.reachable ? 'dot ok' : 'dot bad'} aria-hidden="true" />
      <span className="grow">
        {text}
        {/* The server's own refusal says what to do: a key to set, an address to fix (Ollama's "not running" is the line itself). */}
        {!models.reachable && models.error && models.error.code !== 'OLLAMA_UNREACHABLE' && (
          <span className="muted block small">
            <CoreError error={models.error} />
          </span>
        )}
        {pending && <span className="block small">{t('settings.serverPending')}</span>}
        {/* OLLAMA_HOST is no field of this form: Mnemo asks here, as on the first screen, before sending it anything. */}
        {!pending && models.remote && !models.remote.confirmed && models.api === 'ollama' && models.hostSource === 'environment' && (
          <RemoteServerConsent api="ollama" address={models.remote.address} fromEnvironment />
        )}
      </span>
      <button type="button" className="small" onClick={() => void refresh()} disabled={checking}>
        {checking ? t('setup.checking') : t('setup.checkAgain')}
      </button>
    </div>
  );
}

/** Whether semantic search is on; when it is off, why in one sentence (the core's words folded) and, for the built-in model, the download. */
function EmbeddingLine() {
  const t = useT();
  const embedding = useStatusStore((s) => s.embedding);
  const download = useStatusStore((s) => s.downloadEmbedding);
  if (!embedding) return null;
  const key: MessageKey =
    embedding.state === 'ready'
      ? 'status.embeddingReady'
      : embedding.state === 'loading'
        ? 'status.embeddingLoading'
        : embedding.state === 'downloading'
          ? 'settings.embeddingDownloading'
          : 'status.embeddingOff';
  return (
    <div className="field-note">
      <span className={embedding.state === 'ready' ? 'dot ok' : 'dot warn'} aria-hidden="true" />
      <span className="grow">
        {t(key, { percent: '…' })}
        {embedding.modelId && embedding.state === 'ready' && <span className="muted"> · {embedding.modelId}</span>}
        {embedding.state === 'unavailable' && (
          <span className="muted block small">
            <EmbeddingOffReason status={embedding} place="settings" />
          </span>
        )}
      </span>
      {embedding.state === 'unavailable' && embedding.provider === 'onnx' && (
        <button type="button" className="small" onClick={() => void download()}>
          {t('semantic.download')}
        </button>
      )}
    </div>
  );
}

function DataSection() {
  const t = useT();
  const info = useStatusStore((s) => s.info);
  const id = useId();
  const [copied, setCopied] = useState(false);
  if (!info) return null;
  return (
    <Section title={t('settings.data')}>
      <div className="field">
        <label htmlFor={id}>{t('settings.dataFolder')}</label>
        <div className="input-with-button">
          <input id={id} type="text" value={info.dataDir} readOnly aria-describedby={`${id}-hint`} />
          <button
            type="button"
            className="small"
            onClick={() =>
              void copyText(info.dataDir).then((ok) => {
                setCopied(ok);
                if (ok) setTimeout(() => setCopied(false), 1500);
              })
            }
            aria-label={t('settings.copyDataFolder')}
          >
            <CopyIcon /> {copied ? t('common.copied') : t('common.copy')}
          </button>
        </div>
        <span id={`${id}-hint`} className="field-hint">
          {t('settings.dataFolderHint')}
        </span>
      </div>
      <p className="muted small">
        {/* The migration's name ("0017_reply_writer") means nothing to a user: its number, the name in a tooltip. */}
        <span title={info.schemaVersion}>{schemaLabel(info.schemaVersion, t)}</span> · Mnemo {info.version}
      </p>
    </Section>
  );
}
