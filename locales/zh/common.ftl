## 通用文本与命令菜单

start =
    .description = 开始使用，了解机器人的功能
balance =
    .description = 余额与充值地址
prices =
    .description = 各时长的能量价格
system =
    .description = 服务状态与能量池
link =
    .description = 绑定 API 密钥
unlink =
    .description = 解绑 API 密钥
language =
    .description = 切换语言
help =
    .description = 使用说明
cancel =
    .description = 取消当前操作

duration-seconds = { $count } 秒
duration-minutes = { $count } 分钟
duration-hours = { $count } 小时

language-name-en = 🇬🇧 English
language-name-ru = 🇷🇺 Русский
language-name-zh = 🇨🇳 中文

not-linked = 此聊天尚未绑定账户。请发送 /link，并粘贴控制台中的 API 密钥。
button-expired = 此按钮已失效，请重新开始。

group-private-only = { $command } 只能在与我的私聊中使用，以免密钥和余额暴露在群里。请点击下方按钮，在私聊中发送。
group-private-only-short = 此功能仅在与机器人的私聊中可用。
group-open-private-button = 打开私聊

unhandled-text = 我没看懂这条消息。发送 /help 查看我能做什么。
unhandled-command = 没有这个命令。发送 /help 查看命令列表。
