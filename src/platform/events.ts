/**
 * Typed in-process events: a module says what happened and every module that
 * cares subscribed to it on its own, instead of the composition root passing
 * callbacks from one to the other. Handlers run one after another, in the
 * order they subscribed, so a subscriber whose work another one shows (a
 * reminder the card's switch draws) subscribes first. `emit` resolves once
 * every handler has; the first handler that throws ends it with that error,
 * so the emitter (a tracker poll, a webhook delivery) offers the event again
 * and the handlers, each idempotent, may see it twice but never miss it.
 */
export type EventHandler<E> = (event: E) => void | Promise<void>;

export interface Events<M extends object> {
  /** Subscribes `handler`; the returned function unsubscribes it. */
  on<K extends keyof M & string>(name: K, handler: EventHandler<M[K]>): () => void;
  emit<K extends keyof M & string>(name: K, event: M[K]): Promise<void>;
}

export function createEvents<M extends object>(): Events<M> {
  const handlers = new Map<keyof M, EventHandler<never>[]>();
  return {
    on(name, handler) {
      const list = handlers.get(name) ?? [];
      list.push(handler);
      handlers.set(name, list);
      return () => {
        const current = handlers.get(name) ?? [];
        handlers.set(
          name,
          current.filter((h) => h !== handler),
        );
      };
    },
    async emit(name, event) {
      // A copy: a handler that subscribes or unsubscribes changes the next emit, not this one.
      for (const handler of [...(handlers.get(name) ?? [])]) await (handler as EventHandler<typeof event>)(event);
    },
  };
}
