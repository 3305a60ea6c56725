#!/usr/bin/perl
# Render the report in headless Chromium and fail on a missing image, a
# broken internal link, a script error or anything loaded from the network;
# leave a screenshot of the first screen beside it, to see what a reader
# sees first.
#   tools/check-report.pl [REPORT_DIR]      (default out/report)
# CHROMIUM names the browser binary (default: chromium, Debian's package).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../matrix/lib";
use VMAB::BrowserCheck qw(check_report);

my $dir = shift // 'out/report';
print "check-report: rendering $dir/report.html in headless Chromium\n";
my $r = eval { check_report($dir) };
if (!$r) {
	print STDERR "check-report: $@";
	exit 2;
}
my @p = @{$r->{problems}};
print "check-report: $_\n" for @p;
printf("check-report: %s: %d images, %d internal links, %d problems; first screen in %s (%.1f s)\n",
	@p ? 'FAIL' : 'ok', $r->{images}, $r->{links}, scalar @p, $r->{screenshot}, $r->{seconds});
exit(@p ? 1 : 0);
