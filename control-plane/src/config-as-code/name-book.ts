import type { Names } from './kind.js';

/** Names ⇄ ids of every kind read, and of what apply creates as it goes. */
export class NameBook implements Names {
  private readonly ids = new Map<string, Map<string, string>>();
  private readonly names = new Map<string, Map<string, string>>();
  set(kind: string, name: string, id: string) {
    if (!this.ids.has(kind)) this.ids.set(kind, new Map());
    if (!this.names.has(kind)) this.names.set(kind, new Map());
    this.ids.get(kind)!.set(name, id);
    this.names.get(kind)!.set(id, name);
  }
  idOf(kind: string, name: string) {
    // A reference the exporter could not name (its kind was not readable) is the record's id.
    return this.ids.get(kind)?.get(name) ?? (this.names.get(kind)?.has(name) ? name : undefined);
  }
  nameOf(kind: string, id: string) {
    return this.names.get(kind)?.get(id);
  }
}
