# Entry points (SPEC 7).  V=name[,name] limits the variants; RERUN=1 boots
# every variant even when a clean boot of the same images can be reused.
#   make matrix   build, boot and run every variant, write the report
#                 (non-zero when a variant is not PASS)
#   make check    host-side tests, then the matrix judged by each variant's
#                 .config and matrix/known.tsv (non-zero on any unexpected result)
#   make bench    the benchmarks alone (suite/bench.list), their own checks judged
#   make stress   the 10-minute stress run (suite/stress.list)
#   make tree     unpack and patch out/src/linux only
#   make checkpatch  every patch through the tree's checkpatch.pl --strict
#   make config-deps at most 60 objects of each built variant depend on a
#                 design's option (Kbuild's fixdep; make check runs it)
#   make test-host   the driver's host-side unit tests (no tree needed)
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
	$(DRIVER) run $(VARIANTS) --list run.list,selftests.list,bench.list --timeout-factor 2

# The driver writes the report at the end of its run; the browser check
# of that report follows it (a failed driver stops make before it).
check: deps test-host checkpatch
	$(DRIVER) run $(VARIANTS) --list run.list,selftests.list --judge
	$(MAKE) --no-print-directory config-deps check-report

check-report: deps
	$(PERL) tools/check-report.pl out/report

# The unit tests need no kernel tree; checkpatch runs the patched tree's
# scripts/checkpatch.pl on the patches, so it waits for make tree.
test-host: deps
	prove -I matrix/lib matrix/t

checkpatch: deps tree
	prove -I matrix/lib matrix/xt/checkpatch.t

# After the builds: no design's option reaches most of the kernel's objects.
config-deps:
	prove -I matrix/lib matrix/xt/config_deps.t

tree: deps
	$(DRIVER) tree

bench: deps
	$(DRIVER) run $(VARIANTS) --set bench --list bench.list --timeout-factor 2 --judge

stress: deps
	$(DRIVER) run $(VARIANTS) --set stress --list stress.list --timeout-factor 8 --judge

report:
	$(DRIVER) report

clean:
	rm -rf out/build out/guest out/results out/report out/logs

distclean:
	rm -rf out

.PHONY: all deps tree matrix check check-report test-host checkpatch config-deps bench stress report clean distclean
