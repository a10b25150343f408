# Inputs: db_dir, db_files (space separated), run_dir.
# OVN from the image: the node's ovnkube-node pod runs the zone's NB, SB and ovn-northd and keeps
# their database files in db_dir, where they outlive the pod. Recorded once, before the pod first
# runs: which of them, and whether run_dir, the host already had, so that delete removes only what
# the pod created.
record=/etc/openvswitch/ovn-kubernetes-as-code-zone-image.conf
if [[ ! -e $record ]]; then
    install -d -m 0755 "${record%/*}"
    {
        read -r -a files <<<"$db_files"
        for file in "${files[@]}"; do
            if [[ -e $db_dir/$file ]]; then echo "had $file"; fi
        done
        if [[ -d $run_dir ]]; then echo "had-run-dir yes"; fi
    } >"$record.tmp"
    mv -f "$record.tmp" "$record"
fi
log "zone: NB, SB and ovn-northd run in the ovnkube-node pod, their databases in $db_dir"
