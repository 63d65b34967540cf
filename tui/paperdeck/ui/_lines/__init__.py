"""Every shortcut of ``paperdeck.ui`` that reaches under Textual's public API, in one place.

The widgets keep their own domain (rows, badges, columns, counts, messages) and call the small
functions and classes here for what Textual does not offer publicly: lines put together without
its per-line styling, a scrollbar that draws again only when its picture changes, size changes
without a layout, a hook at the end of each frame and one after the first, a terminal driver that
notices its terminal going away, a gate that hands keys on one at a time. Only ``paperdeck.ui``
modules import this package; nothing outside ``paperdeck.ui`` does.

Written against Textual ``8.2.8``. Each of these relies on how that version works inside, and
tests pin each to it by comparing with what Textual itself draws or does;
``tests/ui/test_lines.py::test_textual_is_the_version_the_shortcuts_were_written_against``
fails on any other installed version, so that an upgrade re-checks them all.

Textual internals touched (name: where used; pinned by):

- ``Widget._vertical_scrollbar`` and ``App._start_widget`` (the body of Textual's
  ``Widget.vertical_scrollbar``, copied): :func:`.scrollbar.vertical_scrollbar_for`, used by
  ``PaperList.vertical_scrollbar``; pinned by ``tests/ui/test_list_scrollbar.py`` (all its
  tests) and ``tests/ui/test_keystroke_layout.py::test_the_scrollbar_follows_a_new_ranking``.
- ``ScrollBar.refresh`` and ``ScrollBar.render_lines`` overridden; ``ScrollBarRender.render_bar``,
  ``ScrollBarRender.VERTICAL_BARS`` / ``HORIZONTAL_BARS`` and ``render_bar``'s thumb arithmetic,
  ``ScrollBarRender.__rich_console__``'s default colours, ``Widget.visual_style`` as the base
  style of each line: :class:`.scrollbar.ListScrollBar`; pinned by
  ``tests/ui/test_list_scrollbar.py::test_the_scrollbar_draws_what_textual_draws``,
  ``::test_a_click_below_the_thumb_still_pages_down``,
  ``::test_the_scrollbar_is_repainted_only_when_its_picture_changes`` and
  ``tests/ui/test_list_drawing.py::test_the_scrollbar_follows_the_cursor``.
- ``Widget._scroll_update`` and ``Widget.virtual_size`` set without its reactive's layout:
  :func:`.no_layout.set_virtual_size`, used by ``PaperList.show``; pinned by
  ``tests/ui/test_keystroke_layout.py::test_typing_and_reranking_ask_for_no_layout``,
  ``::test_the_scrollbar_follows_a_new_ranking`` and
  ``tests/ui/test_list_drawing.py::test_a_new_ranking_repaints_only_the_lines_that_changed``.
- ``Widget.virtual_size`` replaced by a reactive without layout (``Input`` sets it at every change
  of its text): :func:`.no_layout.repaint_only_virtual_size`, used by ``FilterBar`` and
  ``CountsLabel``; pinned by
  ``tests/ui/test_keystroke_layout.py::test_typing_and_reranking_ask_for_no_layout``,
  ``::test_a_long_filter_scrolls_the_bar_to_its_cursor`` and
  ``::test_a_change_of_the_counts_width_lays_out_the_screen_once``.
- How ``Widget.render_lines`` (``StylesCache``) boxes a content line: the content's segments
  unchanged between border and padding cells, unless the styles :func:`.boxing.plain_box`
  checks are set: :class:`.boxing.RowBoxer` and :func:`.boxing.find_box`, used by
  ``PaperList._boxed_lines``; pinned by
  ``tests/ui/test_list_drawing.py::test_row_lines_boxed_by_the_list_are_the_lines_textual_draws``.
- ``ANSIToTruecolor`` (``textual.filter``) dropped from ``Widget.get_line_filters``:
  :func:`.boxing.without_truecolor`, used by ``PaperList`` and ``ListScrollBar``; pinned by
  ``tests/ui/test_list_drawing.py::test_the_truecolor_filter_the_list_skips_would_change_nothing``.
- The content visual's line (``Visual.to_strips`` through ``Widget.render_line``): one segment
  under ``VisualStyle.rich_style_with_offset``, as ``styles.text_align``, ``styles.line_pad``
  and ``styles.content_align`` leave it: :func:`.label.straight_line`, used by
  ``CountsLabel.render_line``; pinned by
  ``tests/ui/test_counts_label.py::test_the_counts_line_is_the_one_textual_draws``.
- ``Screen._compositor.render_update`` wrapped and its update encoded with ``render_segments`` as
  ``App._display`` does: :func:`.frames.watch_frames`, used by the benchmark through
  :mod:`paperdeck.ui.frames`; pinned by
  ``tests/ui/test_lines.py::test_watch_frames_reports_each_frame_after_it_is_encoded``.
- ``Screen._compositor.render_update`` wrapped until it renders a first frame, the callback then
  scheduled after ``Screen._compositor_refresh`` hands that frame to ``App._display``:
  :func:`.frames.after_first_frame`, used by ``MainScreen.on_mount`` (the catalogue-and-index
  worker starts after the first frame, not once the screen is idle); pinned by
  ``tests/ui/test_index_at_start.py::test_after_first_frame_calls_once_and_keeps_hooks_laid_over_it``.
- ``Screen._compositor.render_update`` wrapped until it renders a first frame; when that frame is a
  whole one (``LayoutUpdate``), the ``Widget._repaint_regions`` the widgets in
  ``_compositor.visible_widgets`` held before it are taken out: :func:`.frames.forget_repaints_of_first_frame`,
  used by ``MainScreen.on_mount`` (the second frame no longer draws the whole screen again); pinned by
  ``tests/ui/test_lines.py::test_forget_repaints_of_first_frame_drops_those_asked_before_a_whole_first_frame``.
- A reactable's ``__watchers`` (``textual.reactive._watch``) and ``DOMNode._closing``, pruned as
  ``Reactive._check_watchers`` prunes them: :func:`.watchers.drop_gone_watchers`, used by
  ``PaperFooter.recompose`` (Textual issue #6666: the keys of every earlier composition stayed
  alive); pinned by ``tests/ui/test_footer.py::test_screen_changes_leave_no_footer_keys_alive``.
- ``LinuxDriver.run_input_thread`` (copied, its reading changed), ``LinuxDriver._file`` (wrapped
  for the ``WriterThread``), ``_sigtstp_application`` / ``_sigcont_application``:
  :class:`.terminal.HangupDriver`, the app's driver on a POSIX terminal
  (``PaperApp.get_driver_class``: the app ends when its terminal goes away); pinned by
  ``tests/ui/test_terminal_gone.py`` (all its tests) and ``tests/e2e/test_hangup.py``.
- ``App.on_event``'s forwarding of a key to ``app.focused or app.screen``, the bubbling of
  ``MessagePump._on_message`` (``Message._stop_propagation``, ``MessagePump._parent``,
  ``is_parent_active``, ``is_attached``), a key bubbled back arriving through ``App.post_message``
  and ``Screen._update_auto_focus`` setting a pushed screen's focus once it is composed and resumed:
  :class:`.keys.KeyGate`, used by ``PaperApp.on_event`` and ``PaperApp.post_message`` (each key is
  handled, and a prompt it opens focused, before the next key is handed on); pinned by
  ``tests/ui/test_keys_in_a_burst.py`` (all its tests) and
  ``tests/e2e/test_tmux.py::test_a_burst_of_keys_lands_where_typed``.
- ``Timer._start`` and ``MessagePump._timers`` (the body of Textual's ``MessagePump.set_timer``,
  copied with ``skip=False``: Textual's one-shot timer skips its only tick when the loop stalls
  longer than its delay as it starts): :func:`.timers.one_shot`, used for every one-shot timer of
  ``paperdeck.ui`` (``tests/ui/test_lines.py::test_no_one_shot_timer_is_made_but_through_one_shot``);
  pinned by ``tests/ui/test_detail_follows.py`` (all its tests).
- ``DOMNode._get_component_classes`` (shadowed on the instance), ``DOMNode._component_styles``
  (swapped for the kept dict of the path in place), ``DOMNode.get_component_styles`` (overridden
  to style a component at its first ask), ``DOMNode._css_bases``,
  ``Stylesheet._process_component_classes``'s styling of a ``DOMNode`` per component class
  (done the same way, one component at a time), ``Stylesheet.rules`` as the list a parse makes
  (its rule sets taken from the per-source parse cache), ``RuleSet.selector_names`` /
  ``selector_set``, ``Selector.type`` / ``name`` / ``pseudo_classes``:
  :class:`.component_styles.KeptComponentStyles`, used by
  ``PaperList`` (a change of focus styles none of its components); pinned by
  ``tests/ui/test_component_styles.py`` (all its tests) and
  ``tests/ui/test_list_drawing.py::test_rows_kept_across_focus_and_theme_changes_are_the_rows_drawn_anew``.
- ``DOMNode._merge_bindings`` (overridden, its body copied with the ``BINDINGS`` of plain bases
  taken in), ``DOMNode._inherit_bindings``, ``BindingsMap.key_to_bindings`` / ``from_keys``:
  :func:`.part_bindings.merge_part_bindings`, used by ``ReadingScreen`` (the main screen's
  reading-list actions, a plain class among its bases: one Textual class fewer made before the
  first frame); pinned by
  ``tests/ui/test_commands.py::test_the_main_screen_merges_the_reading_keys_as_a_screen_base_would``.
- ``App._notifications`` (``Notifications.add`` then ``App._refresh_notifications``, the body of
  Textual's ``App._on_notify``) and ``App._unnotify``: :func:`.notifications.show_notification` and
  :func:`.notifications.withdraw_notification` (and :func:`.notifications.withdraw_titled`), used
  by ``SaveFailures`` (a "Not saved" or "Cannot read your data" toast taken away by a later save
  or read of its kind that succeeds), ``QueryToast`` and the removal's notice; pinned by
  ``tests/ui/test_save_failures.py`` (all its tests).
"""
