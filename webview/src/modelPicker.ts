/**
 * The model picker in the header: conversation models, a note on what answers, and the download of a
 * local model with its progress (offered when only the extractive answerer is there, or when the
 * picked model is absent, or when an answer's notice asks for it).
 */
import {
  ModelsSnapshot, ModelDownload, ModelDownloadCancel, type Model,
} from '../../server/src/protocol';
import type { Transport } from './transport';
import { h, iconButton } from './dom';
import { messageOf } from './util';

/** True for the built-in answerer that needs no weights. */
export function isExtractive(m: Model): boolean {
  return /extractive/i.test(`${m.id} ${m.name} ${m.unique ?? ''}`);
}

function isConversationModel(m: Model): boolean {
  return m.usage === 'CODE_CONVERSATION' || m.usage === 'CODE_GENERATION';
}

function downloadable(m: Model): boolean {
  return m.downloaded === false && !m.cloud && !m.custom && !isExtractive(m);
}

export class ModelPicker {
  models: Model[] = [];
  defaultModel?: string;
  readonly picker = h('select', { id: 'model-picker', 'aria-label': 'Model that answers', title: 'Model that answers' });
  readonly downloadBtn = iconButton('download-model', 'cloud-download', 'Download a local model');
  readonly progress = h('progress', { id: 'download-progress', max: 100, value: 0, hidden: true, 'aria-label': 'Model download progress' });
  readonly note = h('div', { id: 'model-note', class: 'model-note', role: 'note' });
  private downloading?: string;
  private refreshTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly t: Transport, private readonly toast: (text: string) => void) {
    this.picker.addEventListener('change', () => {
      t.store.set('model', this.picker.value);
      this.updateNote();
    });
    this.downloadBtn.addEventListener('click', () => void this.download());
  }

  /** The picked model's id, if any. */
  get value(): string | undefined {
    return this.picker.value || undefined;
  }

  currentName(): string | undefined {
    return this.models.find((m) => m.id === this.picker.value)?.name;
  }

  refreshSoon(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), 150);
  }

  async refresh(): Promise<void> {
    try {
      const snap = await this.t.request(ModelsSnapshot, undefined);
      this.models = (snap?.iterable ?? []).filter(isConversationModel);
    } catch (e) {
      this.models = [];
      this.note.textContent = `Models unavailable: ${messageOf(e)}`;
    }
    this.render();
  }

  render(): void {
    const saved = this.t.store.get<string>('model');
    const current = this.picker.value || saved;
    this.picker.replaceChildren();
    for (const m of this.models) {
      const notes: string[] = [];
      if (isExtractive(m)) notes.push('no language model');
      else if (m.downloaded === false && !m.cloud) notes.push('not downloaded');
      if (m.loaded) notes.push('loaded');
      if (m.custom) notes.push('custom');
      this.picker.append(h('option', { value: m.id, text: notes.length ? `${m.name} (${notes.join(', ')})` : m.name }));
    }
    if (!this.models.length) this.picker.append(h('option', { value: '', text: 'Default model' }));
    const pick = [current, this.defaultModel, this.models.find(isExtractive)?.id].find((id) => id && this.models.some((m) => m.id === id));
    if (pick) this.picker.value = pick;
    this.updateNote();
  }

  /** Focuses the picker and opens its list where the browser allows it ("pick another model"). */
  focus(): void {
    this.picker.focus();
    try {
      (this.picker as HTMLSelectElement & { showPicker?: () => void }).showPicker?.();
    } catch {
      /* no user activation: focus is enough */
    }
  }

  private updateNote(): void {
    const m = this.models.find((x) => x.id === this.picker.value);
    this.picker.dataset.extractive = String(!!m && isExtractive(m));
    let note = '';
    if (m && isExtractive(m)) note = 'No language model — extractive answers: quotes the relevant code and says where it is.';
    else if (m && m.downloaded === false && !m.cloud && !m.custom) note = `${m.name} is not downloaded yet.`;
    else if (m) note = `Answers by ${m.name}.`;
    if (!this.downloading) this.note.textContent = note;
    const offer = this.offer();
    this.downloadBtn.hidden = !offer || !!this.downloading;
    if (offer) {
      const label = `Download ${offer.name}${offer.bytes?.readable ? ` (${offer.bytes.readable})` : ''}`;
      this.downloadBtn.title = label;
      this.downloadBtn.setAttribute('aria-label', label);
    }
  }

  /** The local model to offer: the picked one if absent, else the smallest absent one when only the extractive answerer is there. */
  private offer(): Model | undefined {
    const picked = this.models.find((x) => x.id === this.picker.value);
    if (picked && downloadable(picked)) return picked;
    const haveLlm = this.models.some((m) => !isExtractive(m) && (m.downloaded !== false || m.cloud || m.custom));
    if (haveLlm) return undefined;
    return this.models.filter(downloadable).sort((a, b) => (a.bytes?.value ?? Infinity) - (b.bytes?.value ?? Infinity))[0];
  }

  /** Downloads `id` (a notice's model) or the offered one; a second call while downloading cancels. */
  async download(id?: string): Promise<void> {
    if (this.downloading) {
      await this.t.request(ModelDownloadCancel, { model: this.downloading }).catch(() => {});
      return;
    }
    const m = (id ? this.models.find((x) => x.id === id) : undefined) ?? this.offer();
    if (!m) {
      if (id) this.toast(`${id} is not a model this worker knows.`);
      return;
    }
    this.downloading = m.id;
    this.onProgress(m.id, 0, 'INITIALIZED');
    try {
      await this.t.request(ModelDownload, { model: m.id });
      this.picker.value = m.id;
      this.t.store.set('model', m.id);
    } catch (e) {
      this.toast(`Download of ${m.name} failed: ${messageOf(e)}`);
    } finally {
      this.downloading = undefined;
      this.progress.hidden = true;
      await this.refresh();
    }
  }

  onProgress(model: string, percentage: number | null, status?: string): void {
    if (model !== this.downloading) return;
    const bar = this.progress;
    bar.hidden = status === 'COMPLETED' || status === 'FAILED' || status === 'CANCELED';
    if (percentage === null) bar.removeAttribute('value');
    else bar.value = percentage;
    this.downloadBtn.hidden = true;
    const name = this.models.find((m) => m.id === model)?.name ?? model;
    this.note.textContent = `Downloading ${name}${percentage !== null ? ` — ${Math.round(percentage)}%` : '…'}`;
  }
}
