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

duration-seconds = { $count }秒
duration-minutes = { $count }分钟
duration-hours = { $count }小时

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

group-language = 在群组中，我会按每位成员自己的 Telegram 语言回复，因此这里无需设置。/language 请在与我的私聊中使用。
group-hello = 您好！我提供 TRON 能量租赁。在本群中我可以回复 /prices、/system 和 /help。涉及您账户的操作（密钥、余额、订单）只能在与我的私聊中进行：请点击下方按钮。
group-key-exposed = ⚠️ 这条消息让群里所有人都能看到 API 密钥，而我无权在此删除它。请立即在控制台吊销该密钥并创建新密钥，然后在与我的私聊中用 { $command } 绑定新密钥。
group-key-deleted = 我已删除您的消息：其中包含 API 密钥或签名密钥，不应发到群里。群成员可能已在通知中看到；如有疑虑，请在控制台吊销该密钥。{ $command } 只能在与我的私聊中使用，请点击下方按钮。

unhandled-key-deleted = ⚠️ 我删除了您的消息：它看起来像 API 密钥或 webhook 密钥。请勿在任何聊天中发布密钥。如果这是真实的密钥，请在控制台吊销它并创建新密钥。要将密钥绑定到此聊天，请发送 /link。
unhandled-key-not-deleted = ⚠️ 您的消息看起来像 API 密钥或 webhook 密钥，但我无法删除它：请您自行删除。如果这是真实的密钥，请在控制台吊销它并创建新密钥。
