/** The composer: the question box, Ask and Stop. Enter sends, Shift+Enter adds a line, Escape stops. */
import { h, icon } from './dom';

export class Composer {
  readonly prompt = h('textarea', {
    id: 'prompt', rows: 3, 'aria-label': 'Ask about your code',
    placeholder: 'Ask about your code — Enter to send, Shift+Enter for a new line, Escape to stop',
  });
  private readonly sendBtn = h('button', { id: 'send', type: 'button', class: 'primary', title: 'Send (Enter)', 'aria-label': 'Send' }, icon('send'), ' Ask');
  private readonly stopBtn = h('button', { id: 'stop', type: 'button', class: 'secondary', title: 'Stop (Escape)', 'aria-label': 'Stop', hidden: true, disabled: true }, icon('debug-stop'), ' Stop');
  readonly el = h('footer', { class: 'composer' }, this.prompt, h('div', { class: 'composer-actions' }, this.sendBtn, this.stopBtn));

  constructor(handlers: { send(query: string): void; stop(): void; streaming(): boolean }) {
    const send = () => {
      const query = this.prompt.value.trim();
      if (!query || handlers.streaming()) return;
      this.prompt.value = '';
      handlers.send(query);
    };
    this.sendBtn.addEventListener('click', send);
    this.stopBtn.addEventListener('click', () => handlers.stop());
    this.prompt.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        send();
      }
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && handlers.streaming()) {
        e.preventDefault();
        handlers.stop();
      }
    });
  }

  setStreaming(on: boolean): void {
    this.sendBtn.disabled = on;
    this.sendBtn.hidden = on;
    this.stopBtn.hidden = !on;
    this.stopBtn.disabled = !on;
    if (!on) this.prompt.focus();
  }

  /** While a stop is on its way. */
  stopping(): void {
    this.stopBtn.disabled = true;
  }
}
