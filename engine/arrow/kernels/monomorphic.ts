// `monomorphicCopy`: one loop written once, compiled once per array type it runs over.

/**
 * A fresh copy of a self-contained function (it must use no free variables, imports or closures). V8 keeps type
 * feedback per function: a loop called with Float64Array and Int32Array goes polymorphic and slows down, while
 * one copy per array type stays monomorphic.
 */
export function monomorphicCopy<F extends (...args: never[]) => unknown>(f: F): F {
  return new Function(`return ${f.toString()}`)() as F;
}
