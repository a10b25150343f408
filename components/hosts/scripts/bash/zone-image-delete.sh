# Inputs: db_dir, db_files (space separated), run_dir.
# Runs once the ovnkube-node pod has gone: removes the database files it created (with their
# locks) and, when the host had none, its run directory, as zone-image-record.sh found them.
record=/etc/openvswitch/ovn-kubernetes-as-code-zone-image.conf
if [[ ! -e $record ]]; then
    log "zone: nothing of this project's to undo"
    exit 0
fi
read -r -a files <<<"$db_files"
for file in "${files[@]}"; do
    grep -qxF "had $file" "$record" && continue
    rm -f "$db_dir/$file" "$db_dir/.$file.~lock~"
done
if ! grep -qxF "had-run-dir yes" "$record"; then rm -rf --one-file-system "$run_dir"; fi
rm -f "$record"
log "zone: the database files the ovnkube-node pod created removed"
