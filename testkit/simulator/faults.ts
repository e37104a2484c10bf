import type { Fault, FaultControl } from "./types.js";

interface Armed {
  fault: Fault;
  remaining: number;
}

/**
 * Injected misbehaviour, matched by method and path (query string ignored).
 * The first armed fault that matches is used and spends one of its `times`
 * (default: forever until `clear()`).
 */
export class FaultTable implements FaultControl {
  private armed: Armed[] = [];

  inject(fault: Fault): void {
    this.armed.push({ fault: { ...fault }, remaining: fault.times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.armed = [];
  }

  take(method: string, path: string): Fault | undefined {
    const hit = this.armed.find(({ fault }) => {
      if (fault.method !== undefined && fault.method.toUpperCase() !== method) return false;
      return typeof fault.path === "string" ? fault.path === path : new RegExp(fault.path.source, fault.path.flags.replace("g", "")).test(path);
    });
    if (!hit) return undefined;
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.armed = this.armed.filter((a) => a !== hit);
    return hit.fault;
  }
}
