/* test_demangle.c - orion_demangle against binutils c++filt's output for
 * the manglings kernels have (each expected string was printed by c++filt
 * 2.40), manglings it must refuse, and clone names: built, demangled
 * (kernel name plus tag), split back exactly. */
#include <string.h>

#include "check.h"
#include "orion/demangle.h"

static const char *const cases[][2] = {
    {"_Z5heavyPKfPfi", "heavy(float const*, float*, int)"},
    {"_ZN2ns1kIiEEvPT_", "void ns::k<int>(int*)"},
    {"_Z1tILi48EEvPf", "void t<48>(float*)"},
    {"_ZN12_GLOBAL__N_11kEPVKi", "(anonymous namespace)::k(int const volatile*)"},
    {"_Z1kISt4pairIiiEEvPS1_", "void k<std::pair<int, int> >(std::pair<int, int>*)"},
    {"_Z1kIN3foo3barIfEEEvPT_S4_", "void k<foo::bar<float> >(foo::bar<float>*, foo::bar<float>*)"},
    {"_Z1kILb1ELj3ELin2EEvv", "void k<true, 3u, -2>()"},
    {"_Z1kIJifEEvDpT_", "void k<int, float>(int, float)"},
    {"_Z1kIcEvPS_", "void k<char>(k*)"},
    {"_Z1kPDv4_f", "k(float __vector(4)*)"},
    {"_Z1kIfEvPN3fooIT_E3bazE", "void k<float>(foo<float>::baz*)"},
    {"_Z1kRKSt6vectorIiSaIiEE", "k(std::vector<int, std::allocator<int> > const&)"},
    {"_Z1kPDh", "k(half*)"},
    {"_Z1kIxEvPKT_S2_", "void k<long long>(long long const*, long long const*)"},
    {"_Z6kernelv", "kernel()"},
    {"_Z2mrP6float4PKS_i", "mr(float4*, float4 const*, int)"},
    {"_ZN7cutlass6KernelI3FooEEvNT_6ParamsE", "void cutlass::Kernel<Foo>(Foo::Params)"},
};

/* Not read (the mangled name comes back): array and function types, a
 * lambda, truncation, trailing text, plain C names. */
static const char *const refused[] = {
    "_Z1kPA4_i", "_Z1kPFviE", "_ZZ4mainENKUlvE_clEv", "_Z5heavyPKfQ", "_Z6heavy",
    "_Z5heavyPKfPfi__orion_r32", "heavy", "_Z", "_Z999x", "",
};

int main(void) {
  char out[512];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int ok = orion_demangle(cases[i][0], out, sizeof out);
    CHECK(ok && strcmp(out, cases[i][1]) == 0, "%s -> '%s', want '%s'", cases[i][0], out,
          cases[i][1]);
  }
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    int ok = orion_demangle(refused[i], out, sizeof out);
    CHECK(!ok && strcmp(out, refused[i]) == 0, "'%s' -> '%s' (%d)", refused[i], out, ok);
  }
  CHECK(orion_demangle_base("_ZN2ns1kIiEEvPT_", out, sizeof out) && !strcmp(out, "ns::k<int>"),
        "base: %s", out);
  CHECK(orion_demangle_base("_Z5heavyPKfPfi", out, sizeof out) && !strcmp(out, "heavy"),
        "base: %s", out);

  /* clone names */
  static const char *const clones[][4] = {
      {"_Z5heavyPKfPfi", "r32", "_Z16heavy__orion_r32PKfPfi",
       "heavy__orion_r32(float const*, float*, int)"},
      {"_ZN2ns1kIiEEvPT_", "split", "_ZN2ns14k__orion_splitIiEEvPT_",
       "void ns::k__orion_split<int>(int*)"},
      {"_Z1kIcEvPS_", "p40", "_Z12k__orion_p40IcEvPS_", "void k__orion_p40<char>(k__orion_p40*)"},
      {"heavy", "r32", "heavy__orion_r32", "heavy__orion_r32"},
      {"_Z1kPA4_i", "r64", "_Z1kPA4_i__orion_r64", "_Z1kPA4_i__orion_r64"},
      {"a__orion_b", "r32", "a__orion_b__orion_r32", "a__orion_b__orion_r32"},
  };
  for (size_t i = 0; i < sizeof clones / sizeof *clones; i++) {
    char name[256], k[256], t[32];
    CHECK(orion_clone_name(clones[i][0], clones[i][1], name, sizeof name) &&
              !strcmp(name, clones[i][2]),
          "clone of %s: %s", clones[i][0], name);
    orion_demangle(name, out, sizeof out);
    CHECK(!strcmp(out, clones[i][3]), "clone %s demangles to '%s'", name, out);
    CHECK(orion_clone_split(name, k, sizeof k, t, sizeof t) && !strcmp(k, clones[i][0]) &&
              !strcmp(t, clones[i][1]),
          "split %s: %s %s", name, k, t);
  }
  /* ORION_MODE=fixed:<kernel>=... */
  static const char *const named[][3] = {
      {"_ZN2ns1kIiEEvPT_", "_ZN2ns1kIiEEvPT_", "1"}, {"_ZN2ns1kIiEEvPT_", "ns::k<int>", "1"},
      {"_ZN2ns1kIiEEvPT_", "ns::k", "1"},            {"_ZN2ns1kIiEEvPT_", "k", "0"},
      {"_ZN2ns1kIiEEvPT_", "ns::k<float>", "0"},     {"_Z5heavyPKfPfi", "heavy", "1"},
      {"_Z5heavyPKfPfi", "heav", "0"},               {"heavy", "heavy", "1"},
      {"_Z5heavyPKfPfi", "heavy(float const*, float*, int)", "0"},
  };
  for (size_t i = 0; i < sizeof named / sizeof *named; i++)
    CHECK(orion_names_kernel(named[i][1], strlen(named[i][1]), named[i][0]) ==
              (named[i][2][0] == '1'),
          "'%s' names %s: want %s", named[i][1], named[i][0], named[i][2]);
  CHECK(orion_names_kernel("heavy=r32", 5, "_Z5heavyPKfPfi"), "a prefix of a list entry");
  char k[64], t[16];
  CHECK(!orion_clone_split("_Z5heavyPKfPfi", k, sizeof k, t, sizeof t), "an original is no clone");
  CHECK(!orion_clone_split("_Z5heavyPKfPfi__orion_r32", k, sizeof k, t, sizeof t),
        "the old suffix form of a readable name is refused");
  CHECK(!orion_clone_split("__orion_r32", k, sizeof k, t, sizeof t), "no kernel");
  CHECK(!orion_clone_split("heavy__orion_", k, sizeof k, t, sizeof t), "no tag");
  CHECK(!orion_clone_name("_Z5heavyPKfPfi", "r32", out, 10), "does not fit");
  return CHECK_DONE();
}
