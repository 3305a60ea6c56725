# The vrange(2) man page (docs/man/vrange.2, the project's; the kernel
# series carries Documentation/userspace-api/vrange.rst only) formats
# without a warning: groff -ww -man -z prints nothing.
use strict;
use warnings;
use Test::More;
use FindBin;

my $page = "$FindBin::Bin/../../docs/man/vrange.2";
ok(-f $page, 'docs/man/vrange.2 is there');
# groff-base comes with make deps (tools/install-deps.sh): missing, this fails.
BAIL_OUT('groff is not installed: make deps installs groff-base') if system('groff -v >/dev/null 2>&1') != 0;
my $out = `groff -ww -man -z '$page' 2>&1`;
is($?, 0, 'groff -man formats it');
is($out, '', 'groff -ww prints no warning') or diag $out;
done_testing;
