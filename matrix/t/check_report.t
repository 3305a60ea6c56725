# The browser check of the report (a page can be well-formed and still
# show a broken image or link): what it finds in a
# dumped DOM, in Chromium's log and in the page's own resources, and, when
# Chromium is installed, a real run on a page with one fault of each kind.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::File qw(spew);
use VMAB::BrowserCheck qw(check_report dom_problems log_problems network_problems probe_html png_size);

my $dir = tempdir(CLEANUP => 1);
spew("$dir/plot.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');

my $dom = '<html><body data-check-done="1"><h2 id="summary">S</h2><a name="old"></a>' .
	'<a href="#summary">ok</a><a href="#old">ok</a><a href="#q-1">broken</a><a href="#">empty</a>' .
	'<a href="https://example.org/x">cited</a><img src="plot.svg" data-check-loaded="1">' .
	'<img src="gone.svg" data-check-loaded="0"></body></html>';
my ($p, $images, $links) = dom_problems($dom, $dir);
is_deeply($p, ['image gone.svg: the browser could not load it', 'image gone.svg: no such file in the report folder',
	       'internal link #q-1: no element has that id', 'internal link #: no element has that id'],
	  'missing images and internal links without a target');
is_deeply([$images, $links], [2, 4], 'images and internal links counted; external links are not internal');
is_deeply((dom_problems('<html><body><p>x</p></body></html>', $dir))[0],
	  ['the probe script did not run (no data-check-done on <body>)'], 'a probe that did not run is a failure');
is_deeply((dom_problems('<body data-check-done="1"><h3 id="a%20b">x</h3><a href="#a%20b">y</a>', $dir))[0], [],
	  'escaped anchors match');

is_deeply([log_problems(join "\n",
	'[1:1:1205/122511.070025:INFO:CONSOLE:1] "Uncaught ReferenceError: foo is not defined", source: file:///r.html (1)',
	'[1:1:1205/122508.624043:WARNING:ui/base/idle/idle_linux.cc:111] None of the known D-Bus ScreenSaver services could be used.',
	'[1:1:1205/122511.070025:INFO:CONSOLE:3] "hello", source: file:///r.html (3)')],
	['script error: "Uncaught ReferenceError: foo is not defined", source: file:///r.html (1)'],
	'uncaught exceptions are script errors; other log lines are not');

is_deeply([network_problems('<link rel="stylesheet" href="https://cdn.example/x.css"><script src="//cdn.example/x.js"></script>' .
	'<img src="plot.svg"><a href="https://example.org">cited</a><style>@import url("https://f.example/font.css");</style>')],
	['<link> loads https://cdn.example/x.css from the network', '<script> loads //cdn.example/x.js from the network',
	 'CSS loads https://f.example/font.css from the network'], 'network loads found; cited links are fine');

like(probe_html('<html><body><p>x</p></body></html>'), qr/data-check-done.*<\/script>\s*<\/body>/s,
     'the probe goes at the end of the copy\'s body');
ok(!eval { probe_html('<p>no body</p>'); 1 }, 'a page without </body> is refused');

SKIP: {
	my ($chromium) = grep { -x "$_/chromium" } split /:/, $ENV{PATH};
	skip 'chromium not installed (tools/install-deps.sh installs it)', 4 unless $chromium;
	my $bad = tempdir(CLEANUP => 1);
	spew("$bad/report.html", '<!DOCTYPE html><html><head><title>t</title></head><body><h1 id="top">t</h1>' .
		'<a href="#top">ok</a><a href="#nowhere">broken</a><img src="missing.svg" alt="m">' .
		'<script>undefined_function();</script></body></html>');
	my $r = check_report($bad);
	is_deeply([sort map { s/^(\S+ \S+).*/$1/r } @{$r->{problems}}],
		  ['image missing.svg:', 'image missing.svg:', 'internal link', 'script error:'],
		  'Chromium finds the missing image, the broken link and the script error');
	is_deeply([png_size("$bad/report-first-screen.png")], [1280, 900], 'a screenshot of the first screen');
	ok(!-e "$bad/.report-check.html", 'the probe copy is removed');
	spew("$bad/report.html", '<!DOCTYPE html><html><body><h1 id="top">t</h1><a href="#top">ok</a></body></html>');
	is_deeply(check_report($bad)->{problems}, [], 'a clean page passes');
}
done_testing;
