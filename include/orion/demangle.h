/* orion/demangle.h - readable kernel names, and clone names that stay
 * readable.
 *
 * orion_demangle reads the Itanium C++ ABI mangling of the functions CUDA
 * kernels are: a name (namespaces, the anonymous namespace, std::, template
 * arguments: types, integer and bool literals, packs) and its parameter
 * types (builtins, pointers, references, cv-qualifiers, classes, template
 * parameters, substitutions).  It prints what binutils' c++filt prints
 * ("heavy(float const*, float*, int)", "void t<48>(float*)").  Anything
 * outside that subset (function and array types, expressions, lambdas,
 * local names, operators) is not demangled: the caller gets the mangled
 * name back, never a wrong one.
 *
 * Clone names.  A version of kernel K with tag T is named by inserting
 * "__orion_T" into K's own identifier, so that the clone demangles to the
 * kernel's name plus the tag with the same parameters:
 *   _Z5heavyPKfPfi      -> _Z16heavy__orion_r32PKfPfi   heavy__orion_r32(float const*, float*, int)
 *   _ZN2ns1kIiEEvPT_    -> _ZN2ns12k__orion_r32IiEEvPT_
 *   extern "C" heavy    -> heavy__orion_r32
 * (names orion_demangle cannot read get the suffix form K__orion_T).
 * orion_clone_split is the exact inverse: it accepts a name only if
 * orion_clone_name gives it back.
 *
 * Pure functions, thread-safe; they allocate only temporarily.  C11, no
 * C++ runtime: liborionrt uses them.
 */
#ifndef ORION_DEMANGLE_H
#define ORION_DEMANGLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* requires out of capacity n > 0.  Writes mangled's demangled form (the
 * whole declaration) into out and returns 1; or copies mangled and returns
 * 0 when it is not a mangling this reads.  Truncated to fit. */
int orion_demangle(const char *mangled, char *out, size_t n);

/* As orion_demangle, but only the function's qualified name with its
 * template arguments ("ns::k<int>", "heavy"): no return or parameter types. */
int orion_demangle_base(const char *mangled, char *out, size_t n);

/* Whether the len bytes at given name kernel (a symbol): they are the
 * symbol itself, its orion_demangle_base ("ns::k<int>"), or that without
 * template arguments ("ns::k": every instance of the template). */
int orion_names_kernel(const char *given, size_t len, const char *kernel);

/* The clone of kernel with tag into out (capacity n).  Returns 1, or 0 if
 * it does not fit. */
int orion_clone_name(const char *kernel, const char *tag, char *out, size_t n);

/* If name is a clone (orion_clone_name(kernel, tag) == name), write kernel
 * and tag (capacities kn, tn) and return 1; else return 0. */
int orion_clone_split(const char *name, char *kernel, size_t kn, char *tag, size_t tn);

#ifdef __cplusplus
}
#endif
#endif /* ORION_DEMANGLE_H */
