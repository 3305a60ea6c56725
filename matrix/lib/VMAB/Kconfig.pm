package VMAB::Kconfig;
# A variant's .config: tinyconfig, then merge_config.sh with the guest base and
# the variant's fragments, then olddefconfig; then every option a fragment
# asked for is checked in the final .config (merge_config.sh exits 0 even when
# an option did not survive).  The result only replaces the build folder's
# .config when it differs, so an unchanged variant rebuilds nothing.
use strict;
use warnings;
use Exporter 'import';
use File::Copy qw(copy);
use File::Path qw(make_path);
use VMAB::File qw(slurp);
use VMAB::Run qw(run_logged);

our @EXPORT_OK = qw(configure requested_options verify_config parse_config);

# requested_options(@fragment_files) -> { CONFIG_X => 'y' | 'n' | value, ... }
# Later fragments override earlier ones, as merge_config.sh does.
sub requested_options {
	my (@files) = @_;
	my %want;
	for my $f (@files) {
		open(my $fh, '<', $f) or die "cannot read fragment $f: $!\n";
		while (my $l = <$fh>) {
			if ($l =~ /^(CONFIG_\w+)=(.*?)\s*$/) {
				$want{$1} = $2;
			} elsif ($l =~ /^# (CONFIG_\w+) is not set/) {
				$want{$1} = 'n';
			}
		}
	}
	return \%want;
}

# parse_config($text) -> { CONFIG_X => value } with 'n' for "is not set".
sub parse_config {
	my ($text) = @_;
	my %have;
	for my $l (split /\n/, $text) {
		if ($l =~ /^(CONFIG_\w+)=(.*)$/) {
			$have{$1} = $2;
		} elsif ($l =~ /^# (CONFIG_\w+) is not set/) {
			$have{$1} = 'n';
		}
	}
	return \%have;
}

# verify_config($want, $config_text) -> list of "CONFIG_X: wanted A, got B"
sub verify_config {
	my ($want, $text) = @_;
	my $have = parse_config($text);
	my @bad;
	for my $opt (sort keys %$want) {
		my $w = $want->{$opt};
		my $h = $have->{$opt} // 'n';	# absent means off
		push @bad, "$opt: wanted $w, got " . ($have->{$opt} // 'absent')
			if $h ne $w;
	}
	return @bad;
}

sub fragment_files {
	my ($fragdir, $variant) = @_;
	return map { "$fragdir/$_.config" } 'guest-base', @{$variant->{fragments}};
}

# configure(tree, builddir, fragdir, variant, log) -> 1 if .config changed
sub configure {
	my (%o) = @_;
	my ($tree, $build, $fragdir, $v, $log) = @o{qw(tree build fragdir variant log)};
	my $tmp = "$build.config-tmp";
	make_path($build, $tmp);
	my @frags = fragment_files($fragdir, $v);
	-f $_ or die "variant $v->{name}: no fragment $_\n" for @frags;
	my @make = ('make', '-C', $tree, "O=$tmp", 'ARCH=x86_64');
	run_logged($log, @make, 'tinyconfig');
	run_logged($log, "$tree/scripts/kconfig/merge_config.sh", '-m', '-O', $tmp,
		   "$tmp/.config", @frags);
	run_logged($log, @make, 'olddefconfig');
	my $text = slurp("$tmp/.config");
	my @bad = verify_config(requested_options(@frags), $text);
	die "variant $v->{name}: .config lacks what the fragments ask for:\n" .
		join('', map { "  $_\n" } @bad) if @bad;
	return 0 if slurp("$build/.config") eq $text;
	copy("$tmp/.config", "$build/.config") or die "copy .config: $!\n";
	return 1;
}

1;
