package VMAB::BrowserCheck;
# The report, checked in a real browser (well-formed HTML can still show a
# broken image or link, or load from the network): headless
# Chromium loads out/report/report.html from disk and
#   - every <img> must have loaded (the browser's naturalWidth, and the file
#     on disk);
#   - every internal link (href="#x") must have a target (id or name);
#   - no script may fail (Chromium's console log: "Uncaught ...");
#   - nothing may come from the network: no external stylesheet, script,
#     image or font (links to cited sources are fine: they are not loaded);
# and a screenshot of the first screen is left beside the report.
#   check_report($dir, chromium => 'chromium', screenshot => 'report-first-screen.png',
#                width => 1280, height => 900) -> { problems => [...], images, links, seconds }
# The pure parts (dom_problems, log_problems, network_problems) are what
# the host tests exercise without a browser.
use strict;
use warnings;
use Exporter 'import';
use Cwd qw(abs_path);
use File::Temp qw(tempdir);
use POSIX ();
use Time::HiRes qw(time);
use VMAB::File qw(slurp spew);

our @EXPORT_OK = qw(check_report dom_problems log_problems network_problems probe_html png_size);

# Added to a copy of the page (never to report.html itself): once the page
# has loaded, mark each image with whether the browser could decode it, and
# mark the body so that a probe which did not run is noticed.
our $PROBE = <<'JS';
<script>
window.addEventListener('load', function () {
  var imgs = document.getElementsByTagName('img');
  for (var i = 0; i < imgs.length; i++)
    imgs[i].setAttribute('data-check-loaded', imgs[i].complete && imgs[i].naturalWidth > 0 ? '1' : '0');
  document.body.setAttribute('data-check-done', '1');
});
</script>
JS

sub probe_html {
	my ($html) = @_;
	$html =~ s{</body>}{$PROBE</body>} or die "report.html has no </body>\n";
	return $html;
}

sub unescape {
	my ($s) = @_;
	$s =~ s/&quot;/"/g;
	$s =~ s/&lt;/</g;
	$s =~ s/&gt;/>/g;
	$s =~ s/&amp;/&/g;
	$s =~ s/%([0-9A-Fa-f]{2})/chr hex $1/ge;
	return $s;
}

sub attr {
	my ($tag, $name) = @_;
	return $tag =~ /\s\Q$name\E\s*=\s*"([^"]*)"/i ? unescape($1)
	     : $tag =~ /\s\Q$name\E\s*=\s*'([^']*)'/i ? unescape($1) : undef;
}

# Problems in the DOM Chromium dumped after the probe ran, with the report
# folder to look for image files in.  Returns (\@problems, images, links).
sub dom_problems {
	my ($dom, $dir) = @_;
	my @p;
	push @p, 'the probe script did not run (no data-check-done on <body>)'
		unless $dom =~ /<body[^>]*\sdata-check-done="1"/;
	my %target;
	$target{unescape($2)} = 1 while $dom =~ /<[a-z][^>]*\s(id|name)="([^"]*)"/gi;
	my ($images, $links) = (0, 0);
	while ($dom =~ /(<img\b[^>]*>)/gi) {
		my $tag = $1;
		$images++;
		my $src = attr($tag, 'src') // '';
		my $loaded = attr($tag, 'data-check-loaded') // '';
		push @p, "image $src: the browser could not load it" if $loaded ne '1';
		push @p, "image $src: no such file in the report folder"
			if $src !~ m{^(?:[a-z]+:|/)}i && defined $dir && !-s "$dir/$src";
	}
	while ($dom =~ /(<a\b[^>]*>)/gi) {
		my $href = attr($1, 'href') // next;
		next unless $href =~ /^#(.*)/s;
		$links++;
		push @p, "internal link $href: no element has that id" unless length $1 && $target{$1};
	}
	return (\@p, $images, $links);
}

# Script errors in Chromium's log (--enable-logging=stderr --v=0): the
# console lines, which carry uncaught exceptions and console.error().
sub log_problems {
	my ($log) = @_;
	my @p;
	for my $l (split /\n/, $log) {
		next unless $l =~ /:CONSOLE[^\]]*\]\s*(.*)/;
		my $msg = $1;
		push @p, "script error: $msg" if $msg =~ /Uncaught|Error|Failed to load/i;
	}
	return @p;
}

# Anything the page would fetch from elsewhere: it must render offline.
sub network_problems {
	my ($html) = @_;
	my @p;
	while ($html =~ /<(link|script|img|iframe|source|video|audio|object|embed)\b([^>]*)>/gi) {
		my ($tag, $attrs) = (lc $1, $2);
		for my $name (qw(href src data)) {
			my $url = attr(" $attrs", $name) // next;
			push @p, "<$tag> loads $url from the network" if $url =~ m{^(?:[a-z]+:)?//}i && $url !~ /^file:/i;
		}
	}
	push @p, "CSS loads $1 from the network" while $html =~ /(?:url\(|\@import\s)\s*['"]?((?:[a-z]+:)?\/\/[^'")\s]+)/gi;
	return @p;
}

# Width and height of a PNG, from its IHDR chunk.
sub png_size {
	my ($file) = @_;
	open(my $fh, '<:raw', $file) or return;
	read($fh, my $head, 24) == 24 or return;
	return unless substr($head, 0, 8) eq "\x89PNG\r\n\x1a\n" && substr($head, 12, 4) eq 'IHDR';
	return unpack('NN', substr($head, 16, 8));
}

# One Chromium run; returns (exit code, stdout, stderr).
sub chromium {
	my ($bin, $profile, @args) = @_;
	my $out = "$profile/stdout";
	my $err = "$profile/stderr";
	my @cmd = ('timeout', '120', $bin, '--headless', '--disable-gpu', '--no-sandbox', '--no-first-run',
		   '--disable-extensions', '--disable-background-networking', "--user-data-dir=$profile/user",
		   @args);
	my $pid = fork // die "fork: $!\n";
	if (!$pid) {
		open(STDIN, '<', '/dev/null');
		open(STDOUT, '>', $out) or die "$out: $!\n";
		open(STDERR, '>', $err) or die "$err: $!\n";
		exec(@cmd) or do { print STDERR "exec $bin: $!\n"; POSIX::_exit(127) };
	}
	waitpid($pid, 0);
	my $rc = $? >> 8;
	return ($rc, -e $out ? slurp($out) : '', -e $err ? slurp($err) : '');
}

sub check_report {
	my ($dir, %o) = @_;
	my $bin = $o{chromium} // $ENV{CHROMIUM} // 'chromium';
	my $shot = $o{screenshot} // 'report-first-screen.png';
	my ($w, $h) = ($o{width} // 1280, $o{height} // 900);
	my $t0 = time;
	$dir = abs_path($dir) // die "no folder $dir\n";
	my $html_file = "$dir/report.html";
	die "no $html_file: write the report first (make report)\n" unless -s $html_file;
	my $html = slurp($html_file);
	my @p = network_problems($html);
	my $profile = tempdir('vmab-chromium-XXXXXX', TMPDIR => 1, CLEANUP => 1);

	# The probe: a copy of the page beside it (so that relative image
	# paths resolve), loaded until the load event has fired, DOM dumped.
	my $probe = "$dir/.report-check.html";
	spew($probe, probe_html($html));
	my ($rc, $dom, $log) = chromium($bin, $profile, '--enable-logging=stderr', '--v=0',
		'--virtual-time-budget=10000', '--dump-dom', "file://$probe");
	unlink $probe;
	die "chromium ($bin) failed with exit code $rc:\n" . join("\n", (split /\n/, $log)[-5 .. -1]) . "\n"
		if $rc != 0 || $dom !~ /<body/i;
	my ($dp, $images, $links) = dom_problems($dom, $dir);
	push @p, @$dp, log_problems($log);

	# The first screen, as a reader opening report.html sees it.
	unlink "$dir/$shot";
	($rc, undef, $log) = chromium($bin, $profile, "--window-size=$w,$h", '--hide-scrollbars',
		"--screenshot=$dir/$shot", "file://$html_file");
	my ($sw, $sh) = png_size("$dir/$shot");
	push @p, "no screenshot: chromium exit code $rc" unless defined $sw;
	push @p, "screenshot is ${sw}x$sh, not ${w}x$h" if defined $sw && ($sw != $w || $sh != $h);
	return { problems => \@p, images => $images, links => $links, screenshot => "$dir/$shot",
		 seconds => time - $t0 };
}

1;
