/**
 * stdout as `query` and `sql` write a result to it while its rows stream: in order, waiting for
 * 'drain' when the stream asks to, and noticing when the reader has gone (a pipe closed by `| head`),
 * so that the writer stops fetching rows nobody reads. Any other failure to write (a full disk) ends
 * the command with its reason.
 */
import { FatalError } from '../core/errors.js';

export interface ResultOutput {
  /** Writes `text`; false once the reader has gone: nothing more should be produced. */
  write(text: string): Promise<boolean>;
  /** Whether the reader is still there. */
  readonly open: boolean;
}

/** The failures that mean the reader went away rather than that the output is broken. */
const READER_GONE: ReadonlySet<string | undefined> = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

/** The first error of each stream written to; one listener per stream, kept: an error after the command is not an unhandled one. */
const failures = new WeakMap<NodeJS.WritableStream, { error?: NodeJS.ErrnoException }>();

function watch(stream: NodeJS.WritableStream): { error?: NodeJS.ErrnoException } {
  let state = failures.get(stream);
  if (state === undefined) {
    const watched: { error?: NodeJS.ErrnoException } = {};
    stream.on('error', (error: NodeJS.ErrnoException) => (watched.error ??= error));
    failures.set(stream, watched);
    state = watched;
  }
  return state;
}

/** Resolves on the stream's next 'drain', 'close' or 'error'. */
function settled(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

export function resultOutput(stream: NodeJS.WriteStream): ResultOutput {
  const state = watch(stream);
  const open = (): boolean => {
    if (state.error !== undefined && !READER_GONE.has(state.error.code)) {
      throw new FatalError(`cannot write the result to stdout: ${state.error.message}`, { cause: state.error });
    }
    return state.error === undefined && !stream.destroyed;
  };
  return {
    get open() {
      return open();
    },
    async write(text) {
      if (!open()) return false;
      if (!stream.write(text)) await settled(stream);
      return open();
    },
  };
}
