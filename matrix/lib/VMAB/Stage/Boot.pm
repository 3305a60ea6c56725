package VMAB::Stage::Boot;
# The boot stage: the guest initramfs, the accelerator, and every variant's
# kernel booted under QEMU as one guest or several (VMAB::Parts), several
# guests at once (VMAB::Pool), each variant judged (VMAB::Stage::Judge)
# and kept in matrix.json as its last guest ends.  dev_boot is the
# developer's quick boot of one kernel with a few programs.
use strict;
use warnings;
use Exporter 'import';
use Cwd qw(abs_path);
use File::Path qw(make_path);
use POSIX qw(strftime);
use VMAB::File qw(slurp spew);
use VMAB::Guest qw(build_initramfs);
use List::Util qw(sum0);
use VMAB::Log qw(info phase);
use VMAB::Parts qw(plan_parts list_args merge_logs part_failures);
use VMAB::Pool qw(run_pool);
use VMAB::Provenance qw(run_provenance variant_provenance $SCHEMA_VERSION);
use VMAB::Protocol qw(cmdline);
use VMAB::Qemu qw(boot probe_accel qemu_version $GUEST_CPUS);
use VMAB::Record qw(variant_record counts);
use VMAB::Results qw(load_matrix save_matrix);
use VMAB::Reuse qw(boot_key reusable_boot remember_boot forget_boot);
use VMAB::Scale qw(boot_jobs host_cores host_mem_mib);
use VMAB::Stage::Judge qw(judge_boot);
use VMAB::Variants qw(load_variants);

our @EXPORT_OK = qw(boot_stage boot_one boot_part judge_parts guess_secs start_order dev_boot guest_stage
		    pick_accel guest_lists boot_plan);

# guest_stage($ctx, $tree) -> the initramfs of the suite's programs
sub guest_stage {
	my ($ctx, $tree) = @_;
	my (undef, $initrd) = phase('guest: build suite and initramfs', sub {
		build_initramfs(top => $ctx->{top}, tree => $tree, out => "$ctx->{out}/guest",
				log => "$ctx->{logs}/guest.log");
	});
	return $initrd;
}

# pick_accel($ctx, $kernel, $initrd) -> kvm or tcg: --accel, else a probe
# with the given kernel (none: tcg).
sub pick_accel {
	my ($ctx, $kernel, $initrd) = @_;
	my $accel = $ctx->{opt}{accel};
	if ($accel eq 'auto') {
		$accel = defined $kernel ? probe_accel(kernel => $kernel, initrd => $initrd,
						       dir => $ctx->{logs}) : 'tcg';
	}
	info("accelerator: $accel");
	return $accel;
}

# boot_stage($ctx, \@variants, \%built, $tree, $known) -> the matrix (also saved):
# %built is VMAB::Stage::Build's answer; a variant whose build failed is
# recorded BUILDFAIL and not booted.
sub boot_stage {
	my ($ctx, $variants, $built, $tree, $known) = @_;
	my $initrd = guest_stage($ctx, $tree);
	my ($first) = grep { !$built->{$_->{name}}{error} } @$variants;
	my $accel = pick_accel($ctx, $first ? "$ctx->{out}/$first->{name}/bzImage" : undef, $initrd);
	my $m = load_matrix($ctx->{json_file});
	$m->{generated} = strftime('%Y-%m-%d %H:%M:%S UTC', gmtime);
	$m->{accelerator} = $accel;
	$m->{qemu_version} = qemu_version();
	$m->{host_kernel} = (POSIX::uname())[2];
	$m->{source_version} = source_version($tree);
	$m->{run_list} = $ctx->{opt}{list};
	# Each variant this run records carries the run's provenance; those of
	# earlier runs keep theirs (VMAB::Provenance).
	$m->{schema_version} = $SCHEMA_VERSION;
	$m->{run_id} = $m->{generated};
	my $run = run_provenance(run_id => $m->{run_id}, top => $ctx->{top}, tree => $tree,
		tarball => $ctx->{opt}{tarball}, patchdir => "$ctx->{top}/patches", qemu => $m->{qemu_version});
	my $prov = sub { variant_provenance($run, build => "$ctx->{out}/build/$_[0]") };
	my %now = map { $_->{name} => 1 } @$variants;
	my @earlier = sort grep { !$now{$_} } keys %{$m->{variants}};
	info('matrix.json keeps ' . scalar(@earlier) . ' variant(s) from earlier runs, marked so in the report: ' .
	     join(', ', @earlier)) if @earlier;
	my ($guest_lists, $lists) = guest_lists($ctx);

	# Each variant boots as one guest or several (VMAB::Parts); each guest
	# is a job of the pool, the longest first (start_order).  A variant is
	# judged, in this process, when its last guest has ended.
	my %guess = map { $_->{name} => guess_secs($m, $_) } @$variants;
	my (@jobs, %todo);
	for my $v (@$variants) {
		my $n = $v->{name};
		my $r = $built->{$n};
		if ($r->{error}) {
			$m->{variants}{$n} = variant_record(outcome => 'BUILDFAIL', why => [split /\n/, $r->{error}],
							    phases => $r->{phases});
			$m->{variants}{$n}{provenance} = $prov->($n);
			next;
		}
		my %o = (variant => $v, phases => $r->{phases}, release => $r->{release},
			 accel => $accel, initrd => $initrd, lists => $guest_lists,
			 qemu => $m->{qemu_version}, known => $known);
		my $parts = plan_parts($v, $ctx->{logs}, lists => $lists, suite => "$ctx->{top}/suite");
		$todo{$n} = { o => \%o, parts => $parts, ends => [], left => scalar @$parts };
		# The variant's last boot time is its ordinary guests' share; a
		# guest of its own list is short and starts after them.
		my $ordinary = grep { !$_->{list} } @$parts;
		push @jobs, map { my $p = $_; ["$n\t$p->{n}", sub { boot_part($ctx, $p, %o) },
					      $p->{list} ? 0 : $guess{$n} / $ordinary] } @$parts;
	}
	save_matrix($ctx->{json_file}, $m);
	run_pool(boot_slots($ctx), [start_order(@jobs)], sub {
		my ($job, $end) = @_;
		my ($n, $i) = split /\t/, $job;
		my $t = $todo{$n};
		$t->{ends}[$i - 1] = $end // { died => 1 };
		return if --$t->{left};
		my $rec = eval { judge_parts($ctx, $t->{parts}, $t->{ends}, %{$t->{o}}) } // variant_record(
			outcome => 'FAIL', why => ["the driver could not judge this boot: $@"],
			phases => $built->{$n}{phases});
		$rec->{provenance} = $prov->($n);
		$m->{variants}{$n} = $rec;
		save_matrix($ctx->{json_file}, $m);
		say_record($n, $rec);
	});
	return $m;
}

# guest_lists($ctx) -> (the vmab_list of the variants' ordinary guests,
# [every list the run names]): --list's lists, but a list that a guest of
# its own runs (VMAB::Variants::own_lists: zone.list) goes to that guest
# alone (VMAB::Parts), never to the ordinary guests, which do not boot
# with its kernel arguments.  Dies when no list is left for them.
sub guest_lists {
	my ($ctx) = @_;
	my $own = VMAB::Variants::own_lists(load_variants("$ctx->{top}/matrix/variants.conf"));
	my @lists = split /,/, $ctx->{opt}{list};
	my @ordinary = grep { !$own->{$_} } @lists;
	die "--list $ctx->{opt}{list}: each is the list of a guest of its own; name run.list or another too\n"
		unless @ordinary;
	return (join(',', map { "/suite/$_" } @ordinary), \@lists);
}

# guess_secs($matrix, $variant) -> how long the variant's boot should take:
# its last boot's seconds in matrix.json (its guests' summed), else its
# timeout (a variant never booted goes early).
sub guess_secs {
	my ($m, $v) = @_;
	my $b = (($m->{variants}{$v->{name}} // {})->{phases} // {})->{boot};
	return defined $b && $b > 0 ? $b : $v->{timeout};
}

# start_order([name, sub, seconds], ...) -> the jobs, longest first (a
# split variant's guests each count their share), as [name, sub]: with
# the longest started first and the short ones last, the slots end close
# together (longest-processing-time-first scheduling).  Equal ones keep
# their order.
sub start_order {
	my @i = sort { $_[$b][2] <=> $_[$a][2] || $a <=> $b } 0 .. $#_;
	return map { [@{$_[$_]}[0, 1]] } @i;
}

# boot_slots($ctx) -> how many guests at once: --boot-jobs, else VMAB::Scale's.
sub boot_slots {
	my ($ctx) = @_;
	return $ctx->{opt}{'boot-jobs'} if $ctx->{opt}{'boot-jobs'};
	my ($cores, $mem) = (host_cores(), host_mem_mib());
	my $n = boot_jobs($cores, $mem, $VMAB::Qemu::GUEST_MEM_MIB);
	info(sprintf('boot: %d guest(s) at once (%d cores, %.1f GiB available, %d MiB a guest + %d)',
		     $n, $cores, $mem / 1024, $VMAB::Qemu::GUEST_MEM_MIB, $VMAB::Scale::GUEST_OVERHEAD_MIB));
	return $n;
}

# The driver's line on one finished variant, and its unexpected results.
sub say_record {
	my ($n, $rec) = @_;
	my $c = counts($rec);
	my @why = @{$rec->{why} // []};
	info(sprintf('%s: %s: %d results (%d pass, %d skip, %d fail), %d unexpected%s', $n,
		$rec->{outcome}, @$c{qw(all pass skip fail)},
		scalar @{$rec->{problems}}, @why ? ': ' . join('; ', @why > 5 ? (@why[0 .. 4], '...') : @why) : ''));
	for my $p (@{$rec->{problems}}) {
		info("  $p->{mode} $p->{id}: $p->{what} (expected $p->{want}, got $p->{got})");
		info("    | $_") for @{$p->{why} // []};
	}
}

# boot_one($ctx, variant => {...}, phases, release, accel, initrd, lists,
#          qemu => version, known, [run_lists => [list names]])
#   -> the variant's matrix.json record: its guests (VMAB::Parts, with
# those of its own lists that run_lists names) booted one after another,
# then judged.  boot_stage boots the guests in the pool instead.
sub boot_one {
	my ($ctx, %o) = @_;
	my $parts = plan_parts($o{variant}, $ctx->{logs}, lists => $o{run_lists}, suite => "$ctx->{top}/suite");
	my @ends = map { boot_part($ctx, $_, %o) } @$parts;
	return judge_parts($ctx, $parts, \@ends, %o);
}

# boot_part($ctx, $part, variant, accel, initrd, lists, qemu)
#   -> { secs, kept, key, timed_out, flooded }: one guest of a variant
# booted (or its last clean boot reused, VMAB::Reuse) into the part's log
# folder.  Runs in a child process of the pool.
sub boot_part {
	my ($ctx, $p, %o) = @_;
	my $v = $o{variant};
	my $kernel = "$ctx->{out}/$v->{name}/bzImage";
	my ($timeout, $modes, $append) = boot_plan($ctx, $v, $o{accel}, $o{lists}, $p);
	my $key = boot_key(kernel => $kernel, initrd => $o{initrd},
			   append => $append, accel => $o{accel}, qemu => $o{qemu});
	(my $runs = $p->{list} // $o{lists}) =~ s{/suite/}{}g;
	my $what = "$p->{what}: boot and run $runs ($modes, timeout ${timeout}s)";
	my $kept = $ctx->{opt}{rerun} ? undef : reusable_boot($p->{dir}, $key);
	if (defined $kept) {
		info("$what: reused the clean boot of an identical kernel, initramfs " .
		     "and command line (${kept}s then; --rerun or RERUN=1 boots again)");
		return { secs => $kept, kept => 1, key => $key, timed_out => 0, flooded => 0 };
	}
	forget_boot($p->{dir});
	my ($secs, $b) = phase($what, sub {
		qemu_boot($p, $kernel, $o{initrd}, $o{accel}, $append, $timeout, $p->{dir});
	});
	return { secs => $secs, kept => 0, key => $key, timed_out => $b->{timed_out}, flooded => $b->{flooded} };
}

# judge_parts($ctx, \@parts, \@ends, variant, phases, release, known)
#   -> the variant's record: its guests' logs merged into out/logs/V when
# there are several (VMAB::Parts), judged as one boot, each part that was
# not PASS named with its logs; each booted part's key kept when the
# variant is clean.  A part whose driver process died fails the variant
# unjudged (its logs may be an older boot's).
sub judge_parts {
	my ($ctx, $parts, $ends, %o) = @_;
	my $n = $o{variant}{name};
	my $dir = "$ctx->{logs}/$n";
	my @died = grep { $ends->[$_]{died} } 0 .. $#$parts;
	return variant_record(outcome => 'FAIL', phases => $o{phases}, why => [map {
		'the driver process for this boot died' . (@$parts > 1 ? " ($parts->[$_]{what})" : '') } @died]) if @died;
	if (@$parts > 1) {
		forget_boot($dir);	# the merge is no boot of its own
		merge_logs($dir, $parts);
	}
	my %ph = (%{$o{phases} // {}}, boot => sum0(map { $_->{secs} } @$ends));
	$ph{boot_reused} = 1 unless grep { !$_->{kept} } @$ends;
	my $rec = judge_boot(name => $n, dir => $dir, config => "$ctx->{out}/build/$n/.config",
			     known => $o{known}, tap_dir => $ctx->{results_dir},
			     timed_out => (grep { $_->{timed_out} } @$ends) ? 1 : 0,
			     flooded => (grep { $_->{flooded} } @$ends) ? 1 : 0,
			     phases => \%ph, release => $o{release});
	if (@$parts > 1 and my @why = part_failures($n, $parts, $ends)) {
		unshift @{$rec->{why}}, @why;
		$rec->{outcome} = 'FAIL' if $rec->{outcome} eq 'PASS';
	}
	if ($rec->{outcome} eq 'PASS' && !@{$rec->{problems}}) {
		remember_boot($parts->[$_]{dir}, $ends->[$_]{key}, sprintf('%.1f', $ends->[$_]{secs}))
			for grep { !$ends->[$_]{kept} } 0 .. $#$parts;
	}
	return $rec;
}

# boot_plan($ctx, $variant, $accel, $guest_lists, [$part], [$args]) ->
# (timeout, modes, the kernel command line's part after the clock): the
# variant's timeout times --timeout-factor, a third of it under KVM; the
# part's modes (default: all the variant's) and, for a part without the
# first mode, vmab_once=0; a guest of its own list (VMAB::Parts) gets that
# list instead of $guest_lists, and its kernel arguments (as $args does)
# before the vmab_ ones.
sub boot_plan {
	my ($ctx, $v, $accel, $lists, $p, $args) = @_;
	my $timeout = $v->{timeout} * $ctx->{opt}{'timeout-factor'} / ($accel eq 'kvm' ? 3 : 1);
	my $modes = join(',', @{($p // $v)->{modes}});
	$args = join(' ', grep { length } ($p // {})->{args} // '', $args // '');
	return ($timeout, $modes, (length $args ? "$args " : '')
		. cmdline(variant => $v->{name}, modes => $modes, list => ($p // {})->{list} // $lists,
			  cpus => $GUEST_CPUS, once => $p ? $p->{once} : undef));
}

# One QEMU run of a variant's kernel (or of a part of it: $v gives the
# modes), its logs into $dir.
sub qemu_boot {
	my ($v, $kernel, $initrd, $accel, $append, $timeout, $dir) = @_;
	make_path($dir);
	my $swap;
	if (VMAB::Variants::wants_swap_disk($v)) {
		# One per set: make stress may boot a variant while make
		# check boots it too, and QEMU locks the image.
		$swap = "$dir/swap.img";
		truncate_file($swap, 512 << 20);
	}
	return boot(kernel => $kernel, initrd => $initrd, accel => $accel,
		    append => $append, timeout => $timeout, swap_img => $swap,
		    console => "$dir/console.log", results => "$dir/results.log");
}

# dev_boot($ctx, variant => {...}, kernel => bzImage, progs => [names or
#          paths], [list => run list file], [config => .config file], known,
#          [append => kernel arguments])
#   -> (record, log folder): one kernel booted with a throw-away initramfs
# holding only the given programs (a name is built from suite/, a path is
# copied as it is) and run once per mode of the variant; judged like a
# matrix boot, by the .config when there is one.  The guest boots with
# the list's "# vmab-args:" (VMAB::Parts::list_args) and append's kernel
# arguments.  Nothing of make matrix's
# (out/guest, out/logs/V, matrix.json, the reuse keys) is touched: it
# works in out/dev and out/logs/dev/V.
sub dev_boot {
	my ($ctx, %o) = @_;
	my $v = $o{variant};
	my $n = $v->{name};
	my $out = $ctx->{out};
	my $guest = "$out/dev";
	my $dir = "$out/logs/dev/$n";
	my $progs = "$guest/suite";
	make_path($dir, $progs);
	-f $o{kernel} or die "no kernel $o{kernel}: build it (vmab build --variants $n) or give --kernel\n";
	my (@targets, @names);
	for my $p (@{$o{progs}}) {
		if ($p =~ m{/}) {
			-f $p or die "no program $p\n";
			(my $base = $p) =~ s{.*/}{};
			# A program already in the folder (out/dev/suite/P) stays.
			system('cp', $p, "$progs/$base") == 0 or die "cp $p: $?\n"
				unless abs_path($p) eq abs_path("$progs/$base") // '';
			push @names, $base;
		} else {
			push @targets, "$progs/$p";
			push @names, $p;
		}
	}
	spew("$progs/dev.list", defined $o{list} ? slurp($o{list}) : join('', map { "$_\n" } @names));
	my (undef, $initrd) = phase("dev: build @names and the initramfs", sub {
		build_initramfs(top => $ctx->{top}, tree => "$out/src/linux", out => $guest,
				log => "$dir/guest.log", suite_targets => [@targets, "$progs/init"]);
	});
	my $accel = pick_accel({ %$ctx, logs => $dir }, $o{kernel}, $initrd);
	my $args = join(' ', grep { length } (defined $o{list} ? list_args($o{list}) : ''), $o{append} // '');
	my ($timeout, $modes, $append) = boot_plan($ctx, $v, $accel, '/suite/dev.list', undef, $args);
	my ($secs, $b) = phase("dev: boot $o{kernel} as $n ($modes, timeout ${timeout}s)", sub {
		qemu_boot($v, $o{kernel}, $initrd, $accel, $append, $timeout, $dir);
	});
	my $config = $o{config} // "$out/build/$n/.config";
	my $rec = judge_boot(name => $n, dir => $dir, config => -s $config ? $config : undef,
			     known => $o{known}, timed_out => $b->{timed_out}, flooded => $b->{flooded},
			     phases => { boot => $secs });
	return ($rec, $dir);
}

sub truncate_file {
	my ($f, $size) = @_;
	open(my $fh, '>', $f) or die "cannot create $f: $!\n";
	truncate($fh, $size) or die "cannot size $f: $!\n";
	close($fh);
}

sub source_version {
	my ($tree) = @_;
	my $mk = slurp("$tree/Makefile");
	my %v = $mk =~ /^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)/mg;
	return join('.', @v{qw(VERSION PATCHLEVEL SUBLEVEL)});
}

1;
