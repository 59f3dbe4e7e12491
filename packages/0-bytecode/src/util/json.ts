/** A JSON value as `JSON.parse` returns it (the type of JSON text read or written by SMI). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
