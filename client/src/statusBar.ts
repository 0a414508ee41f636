/** The index's status bar item: indexing n/N, ready, keyword-only, paused, error, worker down. */
import * as vscode from 'vscode';
import { IndexProgressNotification, IndexStatus, type IndexProgress } from '../../server/src/protocol';
import { messageOf, type Worker } from './worker';

export class IndexStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('askcode.index', vscode.StatusBarAlignment.Left, 10);
  private progress?: IndexProgress;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly worker: Worker) {
    this.item.name = 'askcode index';
    this.item.command = 'askcode.showIndexStatus';
    this.subs.push(
      worker.onNotification(({ method, params }) => {
        if (method === IndexProgressNotification.method) this.show(params as IndexProgress);
      }),
      worker.onState(({ state }) => {
        if (state === 'running') void this.refresh();
        else this.render();
      }),
    );
    this.render();
    this.item.show();
  }

  get current(): IndexProgress | undefined {
    return this.progress;
  }

  async refresh(): Promise<void> {
    try {
      this.show(await this.worker.request(IndexStatus, undefined));
    } catch (e) {
      this.worker.output.debug(`index status: ${messageOf(e)}`);
      this.render();
    }
  }

  show(p: IndexProgress): void {
    this.progress = p;
    this.render();
  }

  private render(): void {
    const item = this.item;
    item.backgroundColor = undefined;
    if (this.worker.state !== 'running') {
      const starting = this.worker.state === 'starting';
      item.text = starting ? '$(loading~spin) askcode' : '$(circle-slash) askcode';
      item.tooltip = starting ? 'askcode: starting the worker…' : `askcode: ${this.worker.stateMessage ?? 'the worker is not running'} — click for actions`;
      if (!starting) item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      return;
    }
    const p = this.progress;
    if (!p) {
      item.text = '$(search) askcode';
      item.tooltip = 'askcode';
      return;
    }
    const bm25 = p.bm25Only ? ' (keywords only: no embedding model)' : '';
    switch (p.state) {
      case 'indexing': {
        const pct = p.filesTotal ? Math.floor((100 * p.files) / p.filesTotal) : 0;
        item.text = `$(sync~spin) askcode ${p.files}/${p.filesTotal}`;
        item.tooltip = `askcode: indexing ${p.files} of ${p.filesTotal} files (${pct}%)${p.eta ? `, about ${Math.ceil(p.eta)} s left` : ''}${bm25}`;
        break;
      }
      case 'ready':
        item.text = p.bm25Only ? '$(warning) askcode BM25' : '$(check) askcode';
        item.tooltip = `askcode: index ready — ${p.files} files, ${p.chunks} chunks${p.embedded < p.chunks ? `, ${p.embedded} embedded` : ''}${bm25}`;
        break;
      case 'paused':
        item.text = '$(debug-pause) askcode paused';
        item.tooltip = `askcode: indexing paused at ${p.files}/${p.filesTotal} files`;
        break;
      case 'error':
        item.text = '$(error) askcode';
        item.tooltip = `askcode: index error — ${p.message ?? 'see the askcode output'}`;
        item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      default:
        item.text = '$(search) askcode';
        item.tooltip = 'askcode: index idle';
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}
