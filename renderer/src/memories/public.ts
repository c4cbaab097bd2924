/** What other features may use of memories/ besides its stores and helpers: the memory editor (review) and the category choices (timeline, transfer). */
export { MemoryEditor } from './MemoryEditor';
export { CategoryOptions } from './CategoryOptions';
