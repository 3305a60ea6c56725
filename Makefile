# Entry points (SPEC 7).  V=name[,name] limits the variants; RERUN=1 boots
# every variant even when a clean boot of the same images can be reused.
#   make matrix   build, boot and run every variant, write the report
#                 (non-zero when a variant is not PASS)
#   make check    host-side tests, then the matrix judged by each variant's
#                 .config and matrix/known.tsv (non-zero on any unexpected result)
#                 zone.list (check, matrix) runs in the guests of its own
#                 that matrix/variants.conf gives some variants (zone:MODES)
#   make bench    the benchmarks alone (suite/bench.list), their own checks judged
#   make stress   the 10-minute stress run (suite/stress.list)
#   make tree     unpack and patch out/src/linux only
#   make checkpatch  every patch through the tree's checkpatch.pl --strict
#   make check-series  every prefix of each posted series (vrange,
#                 madv-free, droppable) on pristine 6.1 alone: applies,
#                 checkpatch --strict clean, builds with ccache; then the
#                 whole stack once; prints a table (hours on 2 cores, never
#                 part of check).  NO_BUILD=1: apply and checkpatch only
#   make config-deps at most 60 objects of each built variant depend on a
#                 design's option (Kbuild's fixdep; make check runs it)
#   make test-host   the host-side tests (the tree first: two of them
#                 compile the suite against its kselftest harness)
#   make host-bench  the benchmarks of suite/host-bench.list built for this
#                 host and run on it (never part of check): out/host-bench/,
#                 out/results/host-bench.json (docs/host-bench.md)
#   make series   both posted series (vrange, madv-free) with cover letters,
#                 git format-patch --cover-letter, into out/series/; the
#                 figures come from out/results/matrix.json
#   make report   classify and judge each variant's last boot again, then
#                 regenerate out/report from out/results/matrix.json
#   make check-report  render out/report/report.html in headless Chromium:
#                 fails on a missing image, a broken internal link, a script
#                 error or a network load; leaves report-first-screen.png
PERL ?= perl
DRIVER := $(PERL) matrix/vmab
VARIANTS := $(if $(V),--variants $(V))

all: matrix

deps:
	tools/install-deps.sh

matrix: deps
	$(DRIVER) run $(VARIANTS) --list run.list,selftests.list,zone.list,bench.list --timeout-factor 2

# The driver writes the report at the end of its run; the browser check
# of that report follows it (a failed driver stops make before it).
check: deps test-host checkpatch
	$(DRIVER) run $(VARIANTS) --list run.list,selftests.list,zone.list --judge
	$(MAKE) --no-print-directory config-deps check-report

check-report: deps
	$(PERL) tools/check-report.pl out/report

# suite_lib.t and suite_names.t compile the suite against the tree's
# kselftest harness (fail without it), and checkpatch runs the patched
# tree's scripts/checkpatch.pl: both wait for the tree, so that a fresh
# clone (CI) runs every host test.  The harness comes from the tarball, so
# once it is there test-host needs no driver (nor its lock).
HARNESS := out/src/linux/tools/testing/selftests/kselftest_harness.h
$(HARNESS):
	$(DRIVER) tree

test-host: deps $(HARNESS)
	prove -I matrix/lib matrix/t

checkpatch: deps tree
	prove -I matrix/lib matrix/xt/checkpatch.t

# After the builds: no design's option reaches most of the kernel's objects.
config-deps:
	prove -I matrix/lib matrix/xt/config_deps.t

tree: deps
	$(DRIVER) tree

# Every patch builds on its own; seeded from the both variant's .config.
check-series: deps tree
	nice -n 19 tools/check-series-builds.sh $(if $(NO_BUILD),--no-build) --stack

bench: deps
	$(DRIVER) run $(VARIANTS) --set bench --list bench.list --timeout-factor 2 --judge

stress: deps
	$(DRIVER) run $(VARIANTS) --set stress --list stress.list --timeout-factor 8 --judge

report:
	$(DRIVER) report

series: deps tree
	$(PERL) tools/make-series.pl

host-bench: deps tree
	$(PERL) tools/host-bench.pl

clean:
	rm -rf out/build out/guest out/results out/report out/logs

distclean:
	rm -rf out

.PHONY: all deps tree matrix check check-report test-host checkpatch check-series config-deps host-bench bench stress report series clean distclean
